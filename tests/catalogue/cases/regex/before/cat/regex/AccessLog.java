package cat.regex;

import java.util.regex.Pattern;

/** Counts the access log's lines whose client address is a well-formed IPv4 address. */
public final class AccessLog {
    private static final Pattern IPV4 =
            Pattern.compile("((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)");

    private AccessLog() {
    }

    public static int countValidClients(String[] clients) {
        int valid = 0;
        for (String client : clients) {
            if (IPV4.matcher(client).matches()) {
                valid++;
            }
        }
        return valid;
    }
}
