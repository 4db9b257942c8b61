package cat.foreach;

/** Counts the readings of a sensor log above the alarm threshold. */
public final class Sensor {
    private Sensor() {
    }

    public static int alarms(double[] readings, double threshold) {
        int alarms = 0;
        for (int i = 0; i < readings.length; i++) {
            if (readings[i] > threshold) {
                alarms++;
            }
        }
        return alarms;
    }
}
