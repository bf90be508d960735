"""Michigan (Newmarket): a shedding game with chips on four pay cards, no bank (michigan.md)."""
