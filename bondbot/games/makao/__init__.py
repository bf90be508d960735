"""Makao (piekiełko): trick-taking with exact bids over a cycle of deals, scored (makao.md)."""
