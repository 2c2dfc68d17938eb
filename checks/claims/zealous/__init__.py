"""Checks of the zealous.* claims (000_211156f2009240b4.txt ch. 6; 003_755c7aa10ef74058.txt) and
of dp.def1 / dp.def_kquery / dp.def_ksession / dp.def_kkeyword."""
