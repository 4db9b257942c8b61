import jpype
import pytest

# the tags of 1,000 posts, three each: 3,000 tags, 400 distinct ones spelt in two cases
TAGS = [(f"Topic{(i * 7919) % 400}" if i % 2 else f"topic{(i * 7919) % 400}") for i in range(3000)]


@pytest.mark.bytecount("cat.linkedset.Tags#distinctTags")
def test_distinct_tags_ignore_case(bytecount):
    tags = bytecount.jclass("cat.linkedset.Tags")
    assert tags.distinctTags(jpype.JArray(jpype.JString)(TAGS)) == len({tag.lower() for tag in TAGS}) == 400
