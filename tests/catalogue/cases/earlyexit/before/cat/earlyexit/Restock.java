package cat.earlyexit;

/** The first empty slot of an aisle, in shelf order, for the restock alert. */
public final class Restock {
    private Restock() {
    }

    public static int firstEmptySlot(int[] stock) {
        for (int slot = 0; slot < stock.length; slot++) {
            if (stock[slot] == 0) {
                return slot;
            }
        }
        return -1;
    }
}
