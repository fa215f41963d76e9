import sys
import unittest

from pkg import removeprefix


class TestRemovePrefix(unittest.TestCase):
    def test_removeprefix(self):
        self.assertEqual(removeprefix("abc", "a"), "bc")

    @unittest.skipUnless(sys.version_info < (3, 9), "the backport runs before 3.9 only")
    def test_backport_keeps_other_prefixes(self):
        self.assertEqual(removeprefix("abc", "x"), "abc")
