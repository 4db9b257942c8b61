package deepfix;

import java.util.ArrayList;
import java.util.HashMap;

/** Target churn(I)I: java.util collections, ArrayList add/remove(0) and HashMap put/get. */
public final class Colls {
    private Colls() {}

    static int churn(int n) {
        ArrayList<Integer> list = new ArrayList<>();
        HashMap<Integer, Integer> map = new HashMap<>();
        for (int i = 0; i < n; i++) {
            list.add(i);
            map.put(i, i * i);
        }
        int s = 0;
        while (!list.isEmpty()) {
            s += list.remove(0);
        }
        for (int i = 0; i < n; i++) {
            s += map.get(i);
        }
        return s;
    }

    public static void main(String[] args) {
        System.out.println(churn(20));
    }
}
