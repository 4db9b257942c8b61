package shop;

import java.util.Locale;

import org.apache.commons.lang3.CharUtils;
import org.apache.commons.lang3.StringUtils;

/** URL slugs of product titles: accents stripped, lower case, every run of other characters one '-'. */
public final class Slugs {
    private Slugs() {
    }

    public static String slug(String title) {
        String plain = StringUtils.stripAccents(title).toLowerCase(Locale.ROOT);
        StringBuilder out = new StringBuilder(plain.length());
        boolean gap = false;
        for (int i = 0; i < plain.length(); i++) {
            char c = plain.charAt(i);
            if (!CharUtils.isAsciiAlphanumeric(c)) {
                gap = true;
            } else {
                if (gap && out.length() > 0) {
                    out.append('-');
                }
                out.append(c);
                gap = false;
            }
        }
        return out.toString();
    }
}
