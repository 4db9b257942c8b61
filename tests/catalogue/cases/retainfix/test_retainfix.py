import jpype
import pytest

# 1,500 recipients; 1,000 earlier openers, every third of them among the recipients
RECIPIENTS = list(range(0, 3000, 2))
OPENED = list(range(1, 3000, 3))


@pytest.mark.bytecount("cat.retainfix.Audience#returning", deep=True)
def test_returning_counts_recipients_who_opened_before(bytecount):
    audience = bytecount.jclass("cat.retainfix.Audience")
    ArrayList, Integer = jpype.JClass("java.util.ArrayList"), jpype.JClass("java.lang.Integer")
    recipients, opened = ArrayList(), ArrayList()
    for r in RECIPIENTS:
        recipients.add(Integer.valueOf(r))
    for o in OPENED:
        opened.add(Integer.valueOf(o))
    assert audience.returning(recipients, opened) == len(set(RECIPIENTS) & set(OPENED))
