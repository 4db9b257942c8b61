package shop;

import java.util.ArrayList;
import java.util.List;

import org.apache.commons.lang3.StringUtils;

/** Product tags as shoppers type them: trimmed, lower-cased, blanks and repeats dropped, first seen first. */
public final class Tags {
    private Tags() {
    }

    public static List<String> normalize(String[] typed) {
        List<String> out = new ArrayList<>();
        for (String t : typed) {
            String tag = StringUtils.lowerCase(StringUtils.trimToEmpty(t));
            if (!tag.isEmpty() && !out.contains(tag)) {
                out.add(tag);
            }
        }
        return out;
    }
}
