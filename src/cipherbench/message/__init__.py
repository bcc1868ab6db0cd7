"""The message level: whole operations (encrypt, decrypt, hash) rather than blocks.

* ``lwc``: the NIST LWC hardware API's encodings (GMU development package v1.2) and the pdi/sdi/do
  streams of an operation, at w = 8, 16, 32 and cipherbench's widened 128.
* ``tvfiles``: cryptotvgen's pdi.txt / sdi.txt / do.txt.
* ``kat``: the NIST LWC KAT text format (AEAD and hash records, decryption results with FAIL).
* ``gcm``: GCM (SP 800-38D) over any 128-bit block cipher model of the registry.
* ``cavp``: the NIST CAVP GCM response files of the ``cryptography-vectors`` package.
* ``gcm_oracles``: independent GCM implementations to check the model and the engines against.
* ``aead``: KAT records to LWC operations (pdi, sdi, expected do) through a message-level model, and
  an engine's do stream back to KAT records.
* ``ports``: the LWC interface as an Amaranth signature (``LwcShape``, ``LwcSignature``) and the
  interface between the front end and an engine (``EngineSignature``).
* ``lwc_io``: the LWC front end in hardware (pre- and post-processor) around any engine, and
  ``write_lwc_design`` (Verilog and manifest of an engine behind it).
* ``toy``: GMU's ``dummy_lwc`` (model and engine), the fixture the front end and the message-level
  testbench (verify/message_sim.py) are tested on; no cipher of the registry.
* ``gcm_core``: the GCM layer in hardware over any 128-bit block core of the generators.
* ``gcm_engine``: GCM behind the LWC front end (the adapter from words to ``gcm_core``'s blocks),
  and ``gcm_engine_design`` for a 128-bit block cipher's design spec.
"""
