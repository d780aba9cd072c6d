"""A factory module that ends the process while it is being loaded."""
import sys

sys.exit(0)


def tiny(batch=2):
    raise AssertionError("never reached")
