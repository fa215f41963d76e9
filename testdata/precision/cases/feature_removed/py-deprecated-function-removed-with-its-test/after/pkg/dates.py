import datetime


def parse_date(text):
    """Parse an ISO date."""
    return datetime.date.fromisoformat(text)
