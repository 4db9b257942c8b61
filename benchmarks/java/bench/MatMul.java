package bench;

import java.util.function.LongSupplier;

/** C = A * B for 200x200 double matrices (the naive triple loop, i-k-j order). */
public final class MatMul implements LongSupplier {
    static final int N = 200;
    private final double[][] a = new double[N][N];
    private final double[][] b = new double[N][N];

    public MatMul() {
        for (int i = 0; i < N; i++) {
            for (int j = 0; j < N; j++) {
                a[i][j] = (i * 31 + j * 17) % 101 / 101.0;
                b[i][j] = (i * 13 + j * 7) % 97 / 97.0;
            }
        }
    }

    public static double[][] multiply(double[][] a, double[][] b) {
        int n = a.length, m = b[0].length, inner = b.length;
        double[][] c = new double[n][m];
        for (int i = 0; i < n; i++) {
            double[] ci = c[i];
            double[] ai = a[i];
            for (int k = 0; k < inner; k++) {
                double aik = ai[k];
                double[] bk = b[k];
                for (int j = 0; j < m; j++) {
                    ci[j] += aik * bk[j];
                }
            }
        }
        return c;
    }

    @Override
    public long getAsLong() {
        double[][] c = multiply(a, b);
        double sum = 0;
        for (double[] row : c) {
            for (double v : row) {
                sum += v;
            }
        }
        return Double.doubleToLongBits(sum);
    }
}
