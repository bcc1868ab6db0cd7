"""Masked non-linear gadgets (issue 31), generic in the number of shares d + 1 (order d).

- shares.py: the share and randomness layouts of every port, Python sharing helpers.
- dom.py: the DOM-indep multiplier (GF(2) AND, Canright's GF(2^2) and GF(2^4) products).
- pipeline.py: the builder the S-boxes are made with (share-wise linear maps, DOM multipliers,
  registers, stages).
- tower.py: masked GF(2^8) inversion in the tower field; the masked AES S-box and its inverse.
- sbox4.py: masked 4-bit S-boxes (PRESENT, GIFT) as two layers of DOM ANDs.
SM4's masked S-box (the same inverter between SM4's affine maps) is in ciphers/sm4/masked.py.
"""
