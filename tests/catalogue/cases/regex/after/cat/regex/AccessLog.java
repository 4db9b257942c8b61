package cat.regex;

/** Counts the access log's lines whose client address is a well-formed IPv4 address. */
public final class AccessLog {
    private AccessLog() {
    }

    public static int countValidClients(String[] clients) {
        int valid = 0;
        for (String client : clients) {
            if (client.matches("((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)")) {
                valid++;
            }
        }
        return valid;
    }
}
