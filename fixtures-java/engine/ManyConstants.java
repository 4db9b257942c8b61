package engine;

/**
 * More than 256 constant pool entries, so constants used after the first 256 need ldc_w
 * (JVMS 6.5 ldc_w) instead of ldc. javac numbers the pool in the order the code uses it:
 * {@code fillPool} comes first and takes about 280 entries.
 */
public class ManyConstants {
    public static String[] fillPool() {
        return new String[] {
            "k000", "k001", "k002", "k003", "k004", "k005", "k006", "k007", "k008", "k009",
            "k010", "k011", "k012", "k013", "k014", "k015", "k016", "k017", "k018", "k019",
            "k020", "k021", "k022", "k023", "k024", "k025", "k026", "k027", "k028", "k029",
            "k030", "k031", "k032", "k033", "k034", "k035", "k036", "k037", "k038", "k039",
            "k040", "k041", "k042", "k043", "k044", "k045", "k046", "k047", "k048", "k049",
            "k050", "k051", "k052", "k053", "k054", "k055", "k056", "k057", "k058", "k059",
            "k060", "k061", "k062", "k063", "k064", "k065", "k066", "k067", "k068", "k069",
            "k070", "k071", "k072", "k073", "k074", "k075", "k076", "k077", "k078", "k079",
            "k080", "k081", "k082", "k083", "k084", "k085", "k086", "k087", "k088", "k089",
            "k090", "k091", "k092", "k093", "k094", "k095", "k096", "k097", "k098", "k099",
            "k100", "k101", "k102", "k103", "k104", "k105", "k106", "k107", "k108", "k109",
            "k110", "k111", "k112", "k113", "k114", "k115", "k116", "k117", "k118", "k119",
            "k120", "k121", "k122", "k123", "k124", "k125", "k126", "k127", "k128", "k129",
            "k130", "k131", "k132", "k133", "k134", "k135", "k136", "k137", "k138", "k139",
        };
    }

    public static String lateString() {
        return "late string constant";
    }

    public static int lateInt() {
        return 1234567;
    }

    public static float lateFloat() {
        return 1234.5f;
    }

    public static Class<?> lateClass() {
        return java.util.concurrent.ConcurrentHashMap.class;
    }

    public static long lateLong() {
        return 123456789012345L; // ldc2_w exists only in the wide form
    }
}
