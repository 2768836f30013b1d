"""Checks behind abi-tests/run: exported symbols, struct layouts, behaviour diffs."""
