package counting;

/**
 * Arrays of every element type (newarray, anewarray, multianewarray, every *aload and *astore,
 * arraylength), instanceof and checkcast (one that fails and is caught), and the array `clone()`
 * call whose owner in the call key is an array type.
 */
public class ArraysAndTypes {
    static class Cell {
        int value;

        Cell(int value) {
            this.value = value;
        }
    }

    static final class Wall extends Cell {
        Wall() {
            super(-1);
        }
    }

    public static long primitives(int n) {
        boolean[] flags = new boolean[n];
        byte[] bytes = new byte[n];
        char[] chars = new char[n];
        short[] shorts = new short[n];
        int[] ints = new int[n];
        long[] longs = new long[n];
        float[] floats = new float[n];
        double[] doubles = new double[n];
        for (int i = 0; i < n; i++) {
            flags[i] = (i & 1) == 0;
            bytes[i] = (byte) (i * 37);
            chars[i] = (char) ('a' + i);
            shorts[i] = (short) (i * 1000);
            ints[i] = i * i;
            longs[i] = (long) i << 33;
            floats[i] = i / 4f;
            doubles[i] = i * 0.5;
        }
        long sum = 0;
        for (int i = 0; i < n; i++) {
            sum += (flags[i] ? 1 : 0) + bytes[i] + chars[i] + shorts[i] + ints[i] + (longs[i] >> 30)
                    + (long) (floats[i] * 4) + (long) (doubles[i] * 2);
        }
        return sum;
    }

    /** multianewarray for a full [3][4], and for [2][3][] (two dimensions given of three). */
    public static int grids(int w) {
        int[][] full = new int[3][w];
        long[][][] partial = new long[2][3][];
        for (int r = 0; r < full.length; r++) {
            for (int c = 0; c < full[r].length; c++) {
                full[r][c] = r * 10 + c;
            }
        }
        partial[1][2] = new long[] {7L, 8L};
        Cell[][] cells = new Cell[2][2];
        cells[0][1] = new Wall();
        cells[1][0] = new Cell(w);
        int total = 0;
        for (int r = 0; r < full.length; r++) {
            total += full[r][w - 1];
        }
        for (int r = 0; r < cells.length; r++) {
            for (int c = 0; c < cells[r].length; c++) {
                total += cells[r][c] == null ? 0 : cells[r][c].value;
            }
        }
        return total + (int) partial[1][2][1] + (partial[0][0] == null ? 1 : 0);
    }

    /** instanceof on several types, and checkcasts that succeed. */
    public static int classify(Object o) {
        if (o instanceof Wall) {
            return 1;
        }
        if (o instanceof Cell) {
            return 2 + ((Cell) o).value;
        }
        if (o instanceof int[]) {
            return 3 + ((int[]) o).length;
        }
        if (o instanceof String) {
            return 4 + ((String) o).length();
        }
        return o == null ? 0 : 5;
    }

    /** A checkcast that fails raises ClassCastException, caught here. */
    public static int castOrMinus(Object o) {
        try {
            Cell c = (Cell) o;
            return c == null ? 0 : c.value;
        } catch (ClassCastException e) {
            return -1;
        }
    }

    public static int copies(int[] a) {
        int[] b = a.clone();
        Object[] objects = new Object[] {a, b};
        Object[] more = objects.clone();
        b[0] = 99;
        return a[0] + b[0] + more.length;
    }

    public static void main(String[] args) {
        long check = 0;
        for (int n = 0; n < 20; n += 3) {
            check = check * 11 + primitives(n);
        }
        for (int w = 1; w < 6; w++) {
            check = check * 11 + grids(w);
        }
        Object[] things = {new Wall(), new Cell(5), new int[4], "text", null, Integer.valueOf(3), new Cell[0]};
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < things.length; i++) {
                check = check * 11 + classify(things[i]) + castOrMinus(things[i]);
            }
        }
        check += copies(new int[] {1, 2, 3});
        System.out.println("ArraysAndTypes " + check);
    }
}
