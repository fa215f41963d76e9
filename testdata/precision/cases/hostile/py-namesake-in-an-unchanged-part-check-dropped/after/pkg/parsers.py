class Strict:
    def parse(self, s):
        if not s:
            raise ValueError("empty input")
        return s.split(",")


def helper_0(x):
    """Helper 0."""
    y = x * 0
    return y + 0


def helper_1(x):
    """Helper 1."""
    y = x * 1
    return y + 1


def helper_2(x):
    """Helper 2."""
    y = x * 2
    return y + 2


def helper_3(x):
    """Helper 3."""
    y = x * 3
    return y + 3


def helper_4(x):
    """Helper 4."""
    y = x * 4
    return y + 4


def helper_5(x):
    """Helper 5."""
    y = x * 5
    return y + 5


def helper_6(x):
    """Helper 6."""
    y = x * 6
    return y + 6


def helper_7(x):
    """Helper 7."""
    y = x * 7
    return y + 7


def helper_8(x):
    """Helper 8."""
    y = x * 8
    return y + 8


def helper_9(x):
    """Helper 9."""
    y = x * 9
    return y + 9


def helper_10(x):
    """Helper 10."""
    y = x * 10
    return y + 10


def helper_11(x):
    """Helper 11."""
    y = x * 11
    return y + 11


def helper_12(x):
    """Helper 12."""
    y = x * 12
    return y + 12


def helper_13(x):
    """Helper 13."""
    y = x * 13
    return y + 13


def helper_14(x):
    """Helper 14."""
    y = x * 14
    return y + 14


def helper_15(x):
    """Helper 15."""
    y = x * 15
    return y + 15


def helper_16(x):
    """Helper 16."""
    y = x * 16
    return y + 16


def helper_17(x):
    """Helper 17."""
    y = x * 17
    return y + 17


def helper_18(x):
    """Helper 18."""
    y = x * 18
    return y + 18


def helper_19(x):
    """Helper 19."""
    y = x * 19
    return y + 19


def helper_20(x):
    """Helper 20."""
    y = x * 20
    return y + 20


def helper_21(x):
    """Helper 21."""
    y = x * 21
    return y + 21


def helper_22(x):
    """Helper 22."""
    y = x * 22
    return y + 22


def helper_23(x):
    """Helper 23."""
    y = x * 23
    return y + 23


def helper_24(x):
    """Helper 24."""
    y = x * 24
    return y + 24


def helper_25(x):
    """Helper 25."""
    y = x * 25
    return y + 25


def helper_26(x):
    """Helper 26."""
    y = x * 26
    return y + 26


def helper_27(x):
    """Helper 27."""
    y = x * 27
    return y + 27


def helper_28(x):
    """Helper 28."""
    y = x * 28
    return y + 28


def helper_29(x):
    """Helper 29."""
    y = x * 29
    return y + 29


def helper_30(x):
    """Helper 30."""
    y = x * 30
    return y + 30


def helper_31(x):
    """Helper 31."""
    y = x * 31
    return y + 31


def helper_32(x):
    """Helper 32."""
    y = x * 32
    return y + 32


def helper_33(x):
    """Helper 33."""
    y = x * 33
    return y + 33


def helper_34(x):
    """Helper 34."""
    y = x * 34
    return y + 34


def helper_35(x):
    """Helper 35."""
    y = x * 35
    return y + 35


def helper_36(x):
    """Helper 36."""
    y = x * 36
    return y + 36


def helper_37(x):
    """Helper 37."""
    y = x * 37
    return y + 37


def helper_38(x):
    """Helper 38."""
    y = x * 38
    return y + 38


def helper_39(x):
    """Helper 39."""
    y = x * 39
    return y + 39


class Loose:
    def parse(self, s):
        return s.split(",") if s else []
