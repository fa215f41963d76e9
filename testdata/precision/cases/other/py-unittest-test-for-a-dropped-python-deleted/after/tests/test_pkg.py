import unittest

from pkg import removeprefix


class TestRemovePrefix(unittest.TestCase):
    def test_removeprefix(self):
        self.assertEqual(removeprefix("abc", "a"), "bc")
