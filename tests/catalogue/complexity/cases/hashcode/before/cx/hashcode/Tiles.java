package cx.hashcode;

import java.util.*;

/** The distinct tiles of a map of n placements (each tile placed about twice), keyed by layer and position. */
public final class Tiles {
    private Tiles() {
    }

    static final class Tile {
        final int layer;
        final int x;
        final int y;

        Tile(int layer, int x, int y) {
            this.layer = layer;
            this.x = x;
            this.y = y;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Tile && ((Tile) o).layer == layer && ((Tile) o).x == x && ((Tile) o).y == y;
        }

        @Override
        public int hashCode() {
            return 31 * (31 * layer + x) + y;
        }
    }

    public static int distinct(int n) {
        Set<Tile> tiles = new HashSet<>();
        for (int i = 0; i < n; i++) {
            int cell = (int) ((i * 7919L) % (n / 2 + 1));
            tiles.add(new Tile(0, cell % 64, cell / 64));
        }
        return tiles.size();
    }
}
