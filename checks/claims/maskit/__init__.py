"""Checks of every ``maskit.*`` claim (and ``dp.thm2``): 000_211156f2009240b4.txt ch. 3 and
001_eb11505ae1399b83.txt. Modules: ``examples`` (Examples 1-6, figures rebuilt from prose),
``beliefs`` (definitions, Props. 1-5, Cor. 1), ``probabilistic`` (Alg. 2/3, Thm. 3-4, Lemmas 1-5),
``simulatable`` (Alg. 4/5, Lemmas 6-9, Claims 2-5, Thm. 5), ``hybrid`` (§3.6), ``weak`` (001 §6),
``complexity`` (operation counts), ``experiments`` (§3.7 on substitute data)."""
