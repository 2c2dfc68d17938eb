"""privclaims.theory: the papers' algorithms, each as an exact twin and a fast twin.

Conventions (see README "Adding a claim"):

* ``privclaims.theory.numbers`` owns the one rational type :data:`Q` used by every exact twin,
  parsing of user input (``"1/3"``, ``"0.25"``) and rigorous decisions of
  inequalities that involve exp/log of rationals.
* ``privclaims.theory.errors`` owns :class:`InvalidInput`, the single error type raised for bad input.
* ``privclaims.theory.<area>.exact`` is the reference (rational arithmetic, mirrors the paper);
  ``privclaims.theory.<area>.fast`` has the same signatures on numpy float64 and is checked against it.
"""
