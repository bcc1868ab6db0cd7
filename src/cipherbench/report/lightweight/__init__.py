"""The ciphers standardized since the seeds (issue 29): their published hardware figures
(``published``) and the report section that sets ours beside them (``section``)."""
