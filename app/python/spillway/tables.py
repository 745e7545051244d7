"""The C++ side hands over tables as lists of (column, values) pairs and records as lists of
(key, value) pairs, in the order the columns were made; these make DataFrames and dicts of them."""
import pandas


def frame(pairs):
    """A DataFrame of the C++ columns, in their order."""
    return pandas.DataFrame(dict(pairs))


def record(pairs):
    """A dict of a C++ record, in its order."""
    return dict(pairs)
