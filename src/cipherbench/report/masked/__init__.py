"""Masked cores (issue 31): the published masked AES cores (``published``) and the report section
(``section``) that sets the cost of our masking and the leakage assessment's verdicts beside
them."""
