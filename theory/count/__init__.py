"""Distributed private counting (000_211156f2009240b4.txt ch. 5 and §2.2.1; 002_9d55ef468949585c.txt §4, §5.5).

* :mod:`privclaims.theory.count.model` - parameters of Count(sigma^2, t) and their validation (one place).
* :mod:`privclaims.theory.count.normal_tail` - rigorous enclosures of the standard-normal tail Q(x).
* :mod:`privclaims.theory.count.exact_privacy` / :mod:`privclaims.theory.count.fast_privacy` - Theorem 1 (Gaussian
  mechanism, probabilistic DP): exact breach probability, the proof's bound chain, Facts 1-2.
* :mod:`privclaims.theory.count.encryption` - the homomorphic schemes: python-paillier and the one-time pad
  mod p (an instance of Definition 9's ideal scheme).
* :mod:`privclaims.theory.count.protocol` - participants as objects exchanging recorded messages; the thesis
  protocol (Paillier) and the 002 protocol (one-time pads mod p).
* :mod:`privclaims.theory.count.views` - exact view distributions (tiny N, small p) and the proofs' simulators.
* :mod:`privclaims.theory.count.exact_release` / :mod:`privclaims.theory.count.fast_release` - the law of the released
  count (exact convolution) and its vectorised simulation.
* :mod:`privclaims.theory.count.exact_churn` / :mod:`privclaims.theory.count.fast_churn` - Figure 5.3's phase model.
* :mod:`privclaims.theory.count.hierarchy` - context hierarchies and ad-log entries.
* :mod:`privclaims.theory.count.exact_topdown` / :mod:`privclaims.theory.count.fast_topdown` - Algorithms 7 and 8 (exact / float
  twins), Proposition 8's bound, the per-user contribution norm (Corollary 2).
* :mod:`privclaims.theory.count.accuracy` - (alpha, beta)-accuracy of CTR estimates (002 Appendix A.2).
* :mod:`privclaims.theory.count.aol` - the AOL-based emulation of Figure 5.2.

The exact discrete-Gaussian sampler lives in :mod:`privclaims.theory.noise.discrete_gaussian`.
"""
