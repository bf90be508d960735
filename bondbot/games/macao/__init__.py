"""Macao (`rules/macao.md`): baccarat's cousin where every player wagers against the banker
on private two-card hands, naturals pay up to three times and the bank can rotate."""
