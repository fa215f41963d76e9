import datetime
import warnings


def parse_date(text):
    """Parse an ISO date."""
    return datetime.date.fromisoformat(text)


def parse_legacy_date(text):
    """Parse a DD/MM/YYYY date. Deprecated since 2.0: use parse_date."""
    warnings.warn("parse_legacy_date is deprecated", DeprecationWarning)
    day, month, year = text.split("/")
    return datetime.date(int(year), int(month), int(day))
