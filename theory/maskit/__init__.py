"""MaskIt (000_211156f2009240b4.txt ch. 3, 001_eb11505ae1399b83.txt): δ-private context streams
against adversaries knowing the user's Markov chain and the suppression system.

Modules: ``model`` (chain, validation, learning), ``exact`` / ``fast`` (twins of the beliefs and
checks), ``search`` (suppression-probability search), ``system`` (the MaskIt driver, Alg. 1, and
sampling), ``weak`` (001 §6 weaker adversaries), ``hierarchy`` (Theorem 2), ``data`` (traces).
"""
