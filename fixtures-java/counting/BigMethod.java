package counting;

/**
 * Methods of about 15.7 KB and 11.9 KB whose bulk sits inside a loop or under an if. As compiled, every
 * branch is a short goto/if* (no goto_w), but the loop's exit and back edge and the if's forward
 * branch span the whole bulk (over 10 KB): once counting code makes the bulk about three times bigger
 * (a 3-byte iinc before each of its 1.5-byte instructions), they pass 32,767 bytes and need goto_w
 * (JVMS 6.5 goto_w), and the if must be inverted around a goto_w; the method still fits in 64 KB. The
 * bulk is short basic blocks (about 9 bytes each) of ordinary int/long/array code. One counter per
 * block would grow it only by a third, not enough to overflow. The bulk statements repeat five shapes
 * and are machine-written; tests/counting/test_fixtures.py checks the sizes.
 */
public class BigMethod {
    public static long loopAroundBulk(int n) {
        int s = n;
        long acc = 0;
        int[] a = new int[8];
        for (int i = 0; i < n; i++) {
            if (((s + i) & 1) != 0) { s += 1; } else { s ^= 4; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 3750) { acc += s; } else { acc -= i; }
            a[(s ^ 112) & 7] += i;
            s = s < 0 ? -s : s + 149;
            if (((s + i) & 2) != 0) { s += 186; } else { s ^= 189; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 3000) { acc += s; } else { acc -= i; }
            a[(s ^ 97) & 7] += i;
            s = s < 0 ? -s : s + 134;
            if (((s + i) & 4) != 0) { s += 171; } else { s ^= 174; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 2250) { acc += s; } else { acc -= i; }
            a[(s ^ 82) & 7] += i;
            s = s < 0 ? -s : s + 119;
            if (((s + i) & 8) != 0) { s += 156; } else { s ^= 159; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 1500) { acc += s; } else { acc -= i; }
            a[(s ^ 67) & 7] += i;
            s = s < 0 ? -s : s + 104;
            if (((s + i) & 1) != 0) { s += 141; } else { s ^= 144; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 750) { acc += s; } else { acc -= i; }
            a[(s ^ 52) & 7] += i;
            s = s < 0 ? -s : s + 89;
            if (((s + i) & 2) != 0) { s += 126; } else { s ^= 129; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 10000) { acc += s; } else { acc -= i; }
            a[(s ^ 37) & 7] += i;
            s = s < 0 ? -s : s + 74;
            if (((s + i) & 4) != 0) { s += 111; } else { s ^= 114; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 9250) { acc += s; } else { acc -= i; }
            a[(s ^ 22) & 7] += i;
            s = s < 0 ? -s : s + 59;
            if (((s + i) & 8) != 0) { s += 96; } else { s ^= 99; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 8500) { acc += s; } else { acc -= i; }
            a[(s ^ 7) & 7] += i;
            s = s < 0 ? -s : s + 44;
            if (((s + i) & 1) != 0) { s += 81; } else { s ^= 84; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 7750) { acc += s; } else { acc -= i; }
            a[(s ^ 192) & 7] += i;
            s = s < 0 ? -s : s + 29;
            if (((s + i) & 2) != 0) { s += 66; } else { s ^= 69; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 7000) { acc += s; } else { acc -= i; }
            a[(s ^ 177) & 7] += i;
            s = s < 0 ? -s : s + 14;
            if (((s + i) & 4) != 0) { s += 51; } else { s ^= 54; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 6250) { acc += s; } else { acc -= i; }
            a[(s ^ 162) & 7] += i;
            s = s < 0 ? -s : s + 199;
            if (((s + i) & 8) != 0) { s += 36; } else { s ^= 39; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 5500) { acc += s; } else { acc -= i; }
            a[(s ^ 147) & 7] += i;
            s = s < 0 ? -s : s + 184;
            if (((s + i) & 1) != 0) { s += 21; } else { s ^= 24; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 4750) { acc += s; } else { acc -= i; }
            a[(s ^ 132) & 7] += i;
            s = s < 0 ? -s : s + 169;
            if (((s + i) & 2) != 0) { s += 6; } else { s ^= 9; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 4000) { acc += s; } else { acc -= i; }
            a[(s ^ 117) & 7] += i;
            s = s < 0 ? -s : s + 154;
            if (((s + i) & 4) != 0) { s += 191; } else { s ^= 194; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 3250) { acc += s; } else { acc -= i; }
            a[(s ^ 102) & 7] += i;
            s = s < 0 ? -s : s + 139;
            if (((s + i) & 8) != 0) { s += 176; } else { s ^= 179; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 2500) { acc += s; } else { acc -= i; }
            a[(s ^ 87) & 7] += i;
            s = s < 0 ? -s : s + 124;
            if (((s + i) & 1) != 0) { s += 161; } else { s ^= 164; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 1750) { acc += s; } else { acc -= i; }
            a[(s ^ 72) & 7] += i;
            s = s < 0 ? -s : s + 109;
            if (((s + i) & 2) != 0) { s += 146; } else { s ^= 149; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 1000) { acc += s; } else { acc -= i; }
            a[(s ^ 57) & 7] += i;
            s = s < 0 ? -s : s + 94;
            if (((s + i) & 4) != 0) { s += 131; } else { s ^= 134; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 250) { acc += s; } else { acc -= i; }
            a[(s ^ 42) & 7] += i;
            s = s < 0 ? -s : s + 79;
            if (((s + i) & 8) != 0) { s += 116; } else { s ^= 119; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 9500) { acc += s; } else { acc -= i; }
            a[(s ^ 27) & 7] += i;
            s = s < 0 ? -s : s + 64;
            if (((s + i) & 1) != 0) { s += 101; } else { s ^= 104; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 8750) { acc += s; } else { acc -= i; }
            a[(s ^ 12) & 7] += i;
            s = s < 0 ? -s : s + 49;
            if (((s + i) & 2) != 0) { s += 86; } else { s ^= 89; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 8000) { acc += s; } else { acc -= i; }
            a[(s ^ 197) & 7] += i;
            s = s < 0 ? -s : s + 34;
            if (((s + i) & 4) != 0) { s += 71; } else { s ^= 74; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 7250) { acc += s; } else { acc -= i; }
            a[(s ^ 182) & 7] += i;
            s = s < 0 ? -s : s + 19;
            if (((s + i) & 8) != 0) { s += 56; } else { s ^= 59; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 6500) { acc += s; } else { acc -= i; }
            a[(s ^ 167) & 7] += i;
            s = s < 0 ? -s : s + 4;
            if (((s + i) & 1) != 0) { s += 41; } else { s ^= 44; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 5750) { acc += s; } else { acc -= i; }
            a[(s ^ 152) & 7] += i;
            s = s < 0 ? -s : s + 189;
            if (((s + i) & 2) != 0) { s += 26; } else { s ^= 29; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 5000) { acc += s; } else { acc -= i; }
            a[(s ^ 137) & 7] += i;
            s = s < 0 ? -s : s + 174;
            if (((s + i) & 4) != 0) { s += 11; } else { s ^= 14; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 4250) { acc += s; } else { acc -= i; }
            a[(s ^ 122) & 7] += i;
            s = s < 0 ? -s : s + 159;
            if (((s + i) & 8) != 0) { s += 196; } else { s ^= 199; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 3500) { acc += s; } else { acc -= i; }
            a[(s ^ 107) & 7] += i;
            s = s < 0 ? -s : s + 144;
            if (((s + i) & 1) != 0) { s += 181; } else { s ^= 184; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 2750) { acc += s; } else { acc -= i; }
            a[(s ^ 92) & 7] += i;
            s = s < 0 ? -s : s + 129;
            if (((s + i) & 2) != 0) { s += 166; } else { s ^= 169; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 2000) { acc += s; } else { acc -= i; }
            a[(s ^ 77) & 7] += i;
            s = s < 0 ? -s : s + 114;
            if (((s + i) & 4) != 0) { s += 151; } else { s ^= 154; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 1250) { acc += s; } else { acc -= i; }
            a[(s ^ 62) & 7] += i;
            s = s < 0 ? -s : s + 99;
            if (((s + i) & 8) != 0) { s += 136; } else { s ^= 139; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 500) { acc += s; } else { acc -= i; }
            a[(s ^ 47) & 7] += i;
            s = s < 0 ? -s : s + 84;
            if (((s + i) & 1) != 0) { s += 121; } else { s ^= 124; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 9750) { acc += s; } else { acc -= i; }
            a[(s ^ 32) & 7] += i;
            s = s < 0 ? -s : s + 69;
            if (((s + i) & 2) != 0) { s += 106; } else { s ^= 109; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 9000) { acc += s; } else { acc -= i; }
            a[(s ^ 17) & 7] += i;
            s = s < 0 ? -s : s + 54;
            if (((s + i) & 4) != 0) { s += 91; } else { s ^= 94; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 8250) { acc += s; } else { acc -= i; }
            a[(s ^ 2) & 7] += i;
            s = s < 0 ? -s : s + 39;
            if (((s + i) & 8) != 0) { s += 76; } else { s ^= 79; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 7500) { acc += s; } else { acc -= i; }
            a[(s ^ 187) & 7] += i;
            s = s < 0 ? -s : s + 24;
            if (((s + i) & 1) != 0) { s += 61; } else { s ^= 64; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 6750) { acc += s; } else { acc -= i; }
            a[(s ^ 172) & 7] += i;
            s = s < 0 ? -s : s + 9;
            if (((s + i) & 2) != 0) { s += 46; } else { s ^= 49; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 6000) { acc += s; } else { acc -= i; }
            a[(s ^ 157) & 7] += i;
            s = s < 0 ? -s : s + 194;
            if (((s + i) & 4) != 0) { s += 31; } else { s ^= 34; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 5250) { acc += s; } else { acc -= i; }
            a[(s ^ 142) & 7] += i;
            s = s < 0 ? -s : s + 179;
            if (((s + i) & 8) != 0) { s += 16; } else { s ^= 19; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 4500) { acc += s; } else { acc -= i; }
            a[(s ^ 127) & 7] += i;
            s = s < 0 ? -s : s + 164;
            if (((s + i) & 1) != 0) { s += 1; } else { s ^= 4; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 3750) { acc += s; } else { acc -= i; }
            a[(s ^ 112) & 7] += i;
            s = s < 0 ? -s : s + 149;
            if (((s + i) & 2) != 0) { s += 186; } else { s ^= 189; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 3000) { acc += s; } else { acc -= i; }
            a[(s ^ 97) & 7] += i;
            s = s < 0 ? -s : s + 134;
            if (((s + i) & 4) != 0) { s += 171; } else { s ^= 174; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 2250) { acc += s; } else { acc -= i; }
            a[(s ^ 82) & 7] += i;
            s = s < 0 ? -s : s + 119;
            if (((s + i) & 8) != 0) { s += 156; } else { s ^= 159; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 1500) { acc += s; } else { acc -= i; }
            a[(s ^ 67) & 7] += i;
            s = s < 0 ? -s : s + 104;
            if (((s + i) & 1) != 0) { s += 141; } else { s ^= 144; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 750) { acc += s; } else { acc -= i; }
            a[(s ^ 52) & 7] += i;
            s = s < 0 ? -s : s + 89;
            if (((s + i) & 2) != 0) { s += 126; } else { s ^= 129; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 10000) { acc += s; } else { acc -= i; }
            a[(s ^ 37) & 7] += i;
            s = s < 0 ? -s : s + 74;
            if (((s + i) & 4) != 0) { s += 111; } else { s ^= 114; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 9250) { acc += s; } else { acc -= i; }
            a[(s ^ 22) & 7] += i;
            s = s < 0 ? -s : s + 59;
            if (((s + i) & 8) != 0) { s += 96; } else { s ^= 99; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 8500) { acc += s; } else { acc -= i; }
            a[(s ^ 7) & 7] += i;
            s = s < 0 ? -s : s + 44;
            if (((s + i) & 1) != 0) { s += 81; } else { s ^= 84; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 7750) { acc += s; } else { acc -= i; }
            a[(s ^ 192) & 7] += i;
            s = s < 0 ? -s : s + 29;
            if (((s + i) & 2) != 0) { s += 66; } else { s ^= 69; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 7000) { acc += s; } else { acc -= i; }
            a[(s ^ 177) & 7] += i;
            s = s < 0 ? -s : s + 14;
            if (((s + i) & 4) != 0) { s += 51; } else { s ^= 54; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 6250) { acc += s; } else { acc -= i; }
            a[(s ^ 162) & 7] += i;
            s = s < 0 ? -s : s + 199;
            if (((s + i) & 8) != 0) { s += 36; } else { s ^= 39; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 5500) { acc += s; } else { acc -= i; }
            a[(s ^ 147) & 7] += i;
            s = s < 0 ? -s : s + 184;
            if (((s + i) & 1) != 0) { s += 21; } else { s ^= 24; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 4750) { acc += s; } else { acc -= i; }
            a[(s ^ 132) & 7] += i;
            s = s < 0 ? -s : s + 169;
            if (((s + i) & 2) != 0) { s += 6; } else { s ^= 9; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 4000) { acc += s; } else { acc -= i; }
            a[(s ^ 117) & 7] += i;
            s = s < 0 ? -s : s + 154;
            if (((s + i) & 4) != 0) { s += 191; } else { s ^= 194; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 3250) { acc += s; } else { acc -= i; }
            a[(s ^ 102) & 7] += i;
            s = s < 0 ? -s : s + 139;
            if (((s + i) & 8) != 0) { s += 176; } else { s ^= 179; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 2500) { acc += s; } else { acc -= i; }
            a[(s ^ 87) & 7] += i;
            s = s < 0 ? -s : s + 124;
            if (((s + i) & 1) != 0) { s += 161; } else { s ^= 164; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 1750) { acc += s; } else { acc -= i; }
            a[(s ^ 72) & 7] += i;
            s = s < 0 ? -s : s + 109;
            if (((s + i) & 2) != 0) { s += 146; } else { s ^= 149; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 1000) { acc += s; } else { acc -= i; }
            a[(s ^ 57) & 7] += i;
            s = s < 0 ? -s : s + 94;
            if (((s + i) & 4) != 0) { s += 131; } else { s ^= 134; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 250) { acc += s; } else { acc -= i; }
            a[(s ^ 42) & 7] += i;
            s = s < 0 ? -s : s + 79;
            if (((s + i) & 8) != 0) { s += 116; } else { s ^= 119; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 9500) { acc += s; } else { acc -= i; }
            a[(s ^ 27) & 7] += i;
            s = s < 0 ? -s : s + 64;
            if (((s + i) & 1) != 0) { s += 101; } else { s ^= 104; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 8750) { acc += s; } else { acc -= i; }
            a[(s ^ 12) & 7] += i;
            s = s < 0 ? -s : s + 49;
            if (((s + i) & 2) != 0) { s += 86; } else { s ^= 89; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 8000) { acc += s; } else { acc -= i; }
            a[(s ^ 197) & 7] += i;
            s = s < 0 ? -s : s + 34;
            if (((s + i) & 4) != 0) { s += 71; } else { s ^= 74; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 7250) { acc += s; } else { acc -= i; }
            a[(s ^ 182) & 7] += i;
            s = s < 0 ? -s : s + 19;
            if (((s + i) & 8) != 0) { s += 56; } else { s ^= 59; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 6500) { acc += s; } else { acc -= i; }
            a[(s ^ 167) & 7] += i;
            s = s < 0 ? -s : s + 4;
            if (((s + i) & 1) != 0) { s += 41; } else { s ^= 44; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 5750) { acc += s; } else { acc -= i; }
            a[(s ^ 152) & 7] += i;
            s = s < 0 ? -s : s + 189;
            if (((s + i) & 2) != 0) { s += 26; } else { s ^= 29; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 5000) { acc += s; } else { acc -= i; }
            a[(s ^ 137) & 7] += i;
            s = s < 0 ? -s : s + 174;
            if (((s + i) & 4) != 0) { s += 11; } else { s ^= 14; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 4250) { acc += s; } else { acc -= i; }
            a[(s ^ 122) & 7] += i;
            s = s < 0 ? -s : s + 159;
            if (((s + i) & 8) != 0) { s += 196; } else { s ^= 199; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 3500) { acc += s; } else { acc -= i; }
            a[(s ^ 107) & 7] += i;
            s = s < 0 ? -s : s + 144;
            if (((s + i) & 1) != 0) { s += 181; } else { s ^= 184; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 2750) { acc += s; } else { acc -= i; }
            a[(s ^ 92) & 7] += i;
            s = s < 0 ? -s : s + 129;
            if (((s + i) & 2) != 0) { s += 166; } else { s ^= 169; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 2000) { acc += s; } else { acc -= i; }
            a[(s ^ 77) & 7] += i;
            s = s < 0 ? -s : s + 114;
            if (((s + i) & 4) != 0) { s += 151; } else { s ^= 154; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 1250) { acc += s; } else { acc -= i; }
            a[(s ^ 62) & 7] += i;
            s = s < 0 ? -s : s + 99;
            if (((s + i) & 8) != 0) { s += 136; } else { s ^= 139; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 500) { acc += s; } else { acc -= i; }
            a[(s ^ 47) & 7] += i;
            s = s < 0 ? -s : s + 84;
            if (((s + i) & 1) != 0) { s += 121; } else { s ^= 124; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 9750) { acc += s; } else { acc -= i; }
            a[(s ^ 32) & 7] += i;
            s = s < 0 ? -s : s + 69;
            if (((s + i) & 2) != 0) { s += 106; } else { s ^= 109; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 9000) { acc += s; } else { acc -= i; }
            a[(s ^ 17) & 7] += i;
            s = s < 0 ? -s : s + 54;
            if (((s + i) & 4) != 0) { s += 91; } else { s ^= 94; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 8250) { acc += s; } else { acc -= i; }
            a[(s ^ 2) & 7] += i;
            s = s < 0 ? -s : s + 39;
            if (((s + i) & 8) != 0) { s += 76; } else { s ^= 79; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 7500) { acc += s; } else { acc -= i; }
            a[(s ^ 187) & 7] += i;
            s = s < 0 ? -s : s + 24;
            if (((s + i) & 1) != 0) { s += 61; } else { s ^= 64; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 6750) { acc += s; } else { acc -= i; }
            a[(s ^ 172) & 7] += i;
            s = s < 0 ? -s : s + 9;
            if (((s + i) & 2) != 0) { s += 46; } else { s ^= 49; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 6000) { acc += s; } else { acc -= i; }
            a[(s ^ 157) & 7] += i;
            s = s < 0 ? -s : s + 194;
            if (((s + i) & 4) != 0) { s += 31; } else { s ^= 34; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 5250) { acc += s; } else { acc -= i; }
            a[(s ^ 142) & 7] += i;
            s = s < 0 ? -s : s + 179;
            if (((s + i) & 8) != 0) { s += 16; } else { s ^= 19; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 4500) { acc += s; } else { acc -= i; }
            a[(s ^ 127) & 7] += i;
            s = s < 0 ? -s : s + 164;
            if (((s + i) & 1) != 0) { s += 1; } else { s ^= 4; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 3750) { acc += s; } else { acc -= i; }
            a[(s ^ 112) & 7] += i;
            s = s < 0 ? -s : s + 149;
            if (((s + i) & 2) != 0) { s += 186; } else { s ^= 189; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 3000) { acc += s; } else { acc -= i; }
            a[(s ^ 97) & 7] += i;
            s = s < 0 ? -s : s + 134;
            if (((s + i) & 4) != 0) { s += 171; } else { s ^= 174; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 2250) { acc += s; } else { acc -= i; }
            a[(s ^ 82) & 7] += i;
            s = s < 0 ? -s : s + 119;
            if (((s + i) & 8) != 0) { s += 156; } else { s ^= 159; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 1500) { acc += s; } else { acc -= i; }
            a[(s ^ 67) & 7] += i;
            s = s < 0 ? -s : s + 104;
            if (((s + i) & 1) != 0) { s += 141; } else { s ^= 144; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 750) { acc += s; } else { acc -= i; }
            a[(s ^ 52) & 7] += i;
            s = s < 0 ? -s : s + 89;
            if (((s + i) & 2) != 0) { s += 126; } else { s ^= 129; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 10000) { acc += s; } else { acc -= i; }
            a[(s ^ 37) & 7] += i;
            s = s < 0 ? -s : s + 74;
            if (((s + i) & 4) != 0) { s += 111; } else { s ^= 114; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 9250) { acc += s; } else { acc -= i; }
            a[(s ^ 22) & 7] += i;
            s = s < 0 ? -s : s + 59;
            if (((s + i) & 8) != 0) { s += 96; } else { s ^= 99; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 8500) { acc += s; } else { acc -= i; }
            a[(s ^ 7) & 7] += i;
            s = s < 0 ? -s : s + 44;
            if (((s + i) & 1) != 0) { s += 81; } else { s ^= 84; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 7750) { acc += s; } else { acc -= i; }
            a[(s ^ 192) & 7] += i;
            s = s < 0 ? -s : s + 29;
            if (((s + i) & 2) != 0) { s += 66; } else { s ^= 69; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 7000) { acc += s; } else { acc -= i; }
            a[(s ^ 177) & 7] += i;
            s = s < 0 ? -s : s + 14;
            if (((s + i) & 4) != 0) { s += 51; } else { s ^= 54; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 6250) { acc += s; } else { acc -= i; }
            a[(s ^ 162) & 7] += i;
            s = s < 0 ? -s : s + 199;
            if (((s + i) & 8) != 0) { s += 36; } else { s ^= 39; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 5500) { acc += s; } else { acc -= i; }
            a[(s ^ 147) & 7] += i;
            s = s < 0 ? -s : s + 184;
            if (((s + i) & 1) != 0) { s += 21; } else { s ^= 24; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 4750) { acc += s; } else { acc -= i; }
            a[(s ^ 132) & 7] += i;
            s = s < 0 ? -s : s + 169;
            if (((s + i) & 2) != 0) { s += 6; } else { s ^= 9; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 4000) { acc += s; } else { acc -= i; }
            a[(s ^ 117) & 7] += i;
            s = s < 0 ? -s : s + 154;
            if (((s + i) & 4) != 0) { s += 191; } else { s ^= 194; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 3250) { acc += s; } else { acc -= i; }
            a[(s ^ 102) & 7] += i;
            s = s < 0 ? -s : s + 139;
            if (((s + i) & 8) != 0) { s += 176; } else { s ^= 179; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 2500) { acc += s; } else { acc -= i; }
            a[(s ^ 87) & 7] += i;
            s = s < 0 ? -s : s + 124;
            if (((s + i) & 1) != 0) { s += 161; } else { s ^= 164; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 1750) { acc += s; } else { acc -= i; }
            a[(s ^ 72) & 7] += i;
            s = s < 0 ? -s : s + 109;
            if (((s + i) & 2) != 0) { s += 146; } else { s ^= 149; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 1000) { acc += s; } else { acc -= i; }
            a[(s ^ 57) & 7] += i;
            s = s < 0 ? -s : s + 94;
            if (((s + i) & 4) != 0) { s += 131; } else { s ^= 134; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 250) { acc += s; } else { acc -= i; }
            a[(s ^ 42) & 7] += i;
            s = s < 0 ? -s : s + 79;
            if (((s + i) & 8) != 0) { s += 116; } else { s ^= 119; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 9500) { acc += s; } else { acc -= i; }
            a[(s ^ 27) & 7] += i;
            s = s < 0 ? -s : s + 64;
            if (((s + i) & 1) != 0) { s += 101; } else { s ^= 104; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 8750) { acc += s; } else { acc -= i; }
            a[(s ^ 12) & 7] += i;
            s = s < 0 ? -s : s + 49;
            if (((s + i) & 2) != 0) { s += 86; } else { s ^= 89; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 8000) { acc += s; } else { acc -= i; }
            a[(s ^ 197) & 7] += i;
            s = s < 0 ? -s : s + 34;
            if (((s + i) & 4) != 0) { s += 71; } else { s ^= 74; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 7250) { acc += s; } else { acc -= i; }
            a[(s ^ 182) & 7] += i;
            s = s < 0 ? -s : s + 19;
            if (((s + i) & 8) != 0) { s += 56; } else { s ^= 59; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 6500) { acc += s; } else { acc -= i; }
            a[(s ^ 167) & 7] += i;
            s = s < 0 ? -s : s + 4;
            if (((s + i) & 1) != 0) { s += 41; } else { s ^= 44; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 5750) { acc += s; } else { acc -= i; }
            a[(s ^ 152) & 7] += i;
            s = s < 0 ? -s : s + 189;
            if (((s + i) & 2) != 0) { s += 26; } else { s ^= 29; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 5000) { acc += s; } else { acc -= i; }
            a[(s ^ 137) & 7] += i;
            s = s < 0 ? -s : s + 174;
            if (((s + i) & 4) != 0) { s += 11; } else { s ^= 14; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 4250) { acc += s; } else { acc -= i; }
            a[(s ^ 122) & 7] += i;
            s = s < 0 ? -s : s + 159;
            if (((s + i) & 8) != 0) { s += 196; } else { s ^= 199; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 3500) { acc += s; } else { acc -= i; }
            a[(s ^ 107) & 7] += i;
            s = s < 0 ? -s : s + 144;
            if (((s + i) & 1) != 0) { s += 181; } else { s ^= 184; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 2750) { acc += s; } else { acc -= i; }
            a[(s ^ 92) & 7] += i;
            s = s < 0 ? -s : s + 129;
            if (((s + i) & 2) != 0) { s += 166; } else { s ^= 169; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 2000) { acc += s; } else { acc -= i; }
            a[(s ^ 77) & 7] += i;
            s = s < 0 ? -s : s + 114;
            if (((s + i) & 4) != 0) { s += 151; } else { s ^= 154; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 1250) { acc += s; } else { acc -= i; }
            a[(s ^ 62) & 7] += i;
            s = s < 0 ? -s : s + 99;
            if (((s + i) & 8) != 0) { s += 136; } else { s ^= 139; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 500) { acc += s; } else { acc -= i; }
            a[(s ^ 47) & 7] += i;
            s = s < 0 ? -s : s + 84;
            if (((s + i) & 1) != 0) { s += 121; } else { s ^= 124; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 9750) { acc += s; } else { acc -= i; }
            a[(s ^ 32) & 7] += i;
            s = s < 0 ? -s : s + 69;
            if (((s + i) & 2) != 0) { s += 106; } else { s ^= 109; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 9000) { acc += s; } else { acc -= i; }
            a[(s ^ 17) & 7] += i;
            s = s < 0 ? -s : s + 54;
            if (((s + i) & 4) != 0) { s += 91; } else { s ^= 94; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 8250) { acc += s; } else { acc -= i; }
            a[(s ^ 2) & 7] += i;
            s = s < 0 ? -s : s + 39;
            if (((s + i) & 8) != 0) { s += 76; } else { s ^= 79; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 7500) { acc += s; } else { acc -= i; }
            a[(s ^ 187) & 7] += i;
            s = s < 0 ? -s : s + 24;
            if (((s + i) & 1) != 0) { s += 61; } else { s ^= 64; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 6750) { acc += s; } else { acc -= i; }
            a[(s ^ 172) & 7] += i;
            s = s < 0 ? -s : s + 9;
            if (((s + i) & 2) != 0) { s += 46; } else { s ^= 49; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 6000) { acc += s; } else { acc -= i; }
            a[(s ^ 157) & 7] += i;
            s = s < 0 ? -s : s + 194;
            if (((s + i) & 4) != 0) { s += 31; } else { s ^= 34; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 5250) { acc += s; } else { acc -= i; }
            a[(s ^ 142) & 7] += i;
            s = s < 0 ? -s : s + 179;
            if (((s + i) & 8) != 0) { s += 16; } else { s ^= 19; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 4500) { acc += s; } else { acc -= i; }
            a[(s ^ 127) & 7] += i;
            s = s < 0 ? -s : s + 164;
            if (((s + i) & 1) != 0) { s += 1; } else { s ^= 4; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 3750) { acc += s; } else { acc -= i; }
            a[(s ^ 112) & 7] += i;
            s = s < 0 ? -s : s + 149;
            if (((s + i) & 2) != 0) { s += 186; } else { s ^= 189; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 3000) { acc += s; } else { acc -= i; }
            a[(s ^ 97) & 7] += i;
            s = s < 0 ? -s : s + 134;
            if (((s + i) & 4) != 0) { s += 171; } else { s ^= 174; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 2250) { acc += s; } else { acc -= i; }
            a[(s ^ 82) & 7] += i;
            s = s < 0 ? -s : s + 119;
            if (((s + i) & 8) != 0) { s += 156; } else { s ^= 159; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 1500) { acc += s; } else { acc -= i; }
            a[(s ^ 67) & 7] += i;
            s = s < 0 ? -s : s + 104;
            if (((s + i) & 1) != 0) { s += 141; } else { s ^= 144; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 750) { acc += s; } else { acc -= i; }
            a[(s ^ 52) & 7] += i;
            s = s < 0 ? -s : s + 89;
            if (((s + i) & 2) != 0) { s += 126; } else { s ^= 129; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 10000) { acc += s; } else { acc -= i; }
            a[(s ^ 37) & 7] += i;
            s = s < 0 ? -s : s + 74;
            if (((s + i) & 4) != 0) { s += 111; } else { s ^= 114; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 9250) { acc += s; } else { acc -= i; }
            a[(s ^ 22) & 7] += i;
            s = s < 0 ? -s : s + 59;
            if (((s + i) & 8) != 0) { s += 96; } else { s ^= 99; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 8500) { acc += s; } else { acc -= i; }
            a[(s ^ 7) & 7] += i;
            s = s < 0 ? -s : s + 44;
            if (((s + i) & 1) != 0) { s += 81; } else { s ^= 84; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 7750) { acc += s; } else { acc -= i; }
            a[(s ^ 192) & 7] += i;
            s = s < 0 ? -s : s + 29;
            if (((s + i) & 2) != 0) { s += 66; } else { s ^= 69; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 7000) { acc += s; } else { acc -= i; }
            a[(s ^ 177) & 7] += i;
            s = s < 0 ? -s : s + 14;
            if (((s + i) & 4) != 0) { s += 51; } else { s ^= 54; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 6250) { acc += s; } else { acc -= i; }
            a[(s ^ 162) & 7] += i;
            s = s < 0 ? -s : s + 199;
            if (((s + i) & 8) != 0) { s += 36; } else { s ^= 39; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 5500) { acc += s; } else { acc -= i; }
            a[(s ^ 147) & 7] += i;
            s = s < 0 ? -s : s + 184;
            if (((s + i) & 1) != 0) { s += 21; } else { s ^= 24; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 4750) { acc += s; } else { acc -= i; }
            a[(s ^ 132) & 7] += i;
            s = s < 0 ? -s : s + 169;
            if (((s + i) & 2) != 0) { s += 6; } else { s ^= 9; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 4000) { acc += s; } else { acc -= i; }
            a[(s ^ 117) & 7] += i;
            s = s < 0 ? -s : s + 154;
            if (((s + i) & 4) != 0) { s += 191; } else { s ^= 194; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 3250) { acc += s; } else { acc -= i; }
            a[(s ^ 102) & 7] += i;
            s = s < 0 ? -s : s + 139;
            if (((s + i) & 8) != 0) { s += 176; } else { s ^= 179; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 2500) { acc += s; } else { acc -= i; }
            a[(s ^ 87) & 7] += i;
            s = s < 0 ? -s : s + 124;
            if (((s + i) & 1) != 0) { s += 161; } else { s ^= 164; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 1750) { acc += s; } else { acc -= i; }
            a[(s ^ 72) & 7] += i;
            s = s < 0 ? -s : s + 109;
            if (((s + i) & 2) != 0) { s += 146; } else { s ^= 149; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 1000) { acc += s; } else { acc -= i; }
            a[(s ^ 57) & 7] += i;
            s = s < 0 ? -s : s + 94;
            if (((s + i) & 4) != 0) { s += 131; } else { s ^= 134; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 250) { acc += s; } else { acc -= i; }
            a[(s ^ 42) & 7] += i;
            s = s < 0 ? -s : s + 79;
            if (((s + i) & 8) != 0) { s += 116; } else { s ^= 119; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 9500) { acc += s; } else { acc -= i; }
            a[(s ^ 27) & 7] += i;
            s = s < 0 ? -s : s + 64;
            if (((s + i) & 1) != 0) { s += 101; } else { s ^= 104; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 8750) { acc += s; } else { acc -= i; }
            a[(s ^ 12) & 7] += i;
            s = s < 0 ? -s : s + 49;
            if (((s + i) & 2) != 0) { s += 86; } else { s ^= 89; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 8000) { acc += s; } else { acc -= i; }
            a[(s ^ 197) & 7] += i;
            s = s < 0 ? -s : s + 34;
            if (((s + i) & 4) != 0) { s += 71; } else { s ^= 74; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 7250) { acc += s; } else { acc -= i; }
            a[(s ^ 182) & 7] += i;
            s = s < 0 ? -s : s + 19;
            if (((s + i) & 8) != 0) { s += 56; } else { s ^= 59; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 6500) { acc += s; } else { acc -= i; }
            a[(s ^ 167) & 7] += i;
            s = s < 0 ? -s : s + 4;
            if (((s + i) & 1) != 0) { s += 41; } else { s ^= 44; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 5750) { acc += s; } else { acc -= i; }
            a[(s ^ 152) & 7] += i;
            s = s < 0 ? -s : s + 189;
            if (((s + i) & 2) != 0) { s += 26; } else { s ^= 29; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 5000) { acc += s; } else { acc -= i; }
            a[(s ^ 137) & 7] += i;
            s = s < 0 ? -s : s + 174;
            if (((s + i) & 4) != 0) { s += 11; } else { s ^= 14; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 4250) { acc += s; } else { acc -= i; }
            a[(s ^ 122) & 7] += i;
            s = s < 0 ? -s : s + 159;
            if (((s + i) & 8) != 0) { s += 196; } else { s ^= 199; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 3500) { acc += s; } else { acc -= i; }
            a[(s ^ 107) & 7] += i;
            s = s < 0 ? -s : s + 144;
            if (((s + i) & 1) != 0) { s += 181; } else { s ^= 184; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 2750) { acc += s; } else { acc -= i; }
            a[(s ^ 92) & 7] += i;
            s = s < 0 ? -s : s + 129;
            if (((s + i) & 2) != 0) { s += 166; } else { s ^= 169; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 2000) { acc += s; } else { acc -= i; }
            a[(s ^ 77) & 7] += i;
            s = s < 0 ? -s : s + 114;
            if (((s + i) & 4) != 0) { s += 151; } else { s ^= 154; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 1250) { acc += s; } else { acc -= i; }
            a[(s ^ 62) & 7] += i;
            s = s < 0 ? -s : s + 99;
            if (((s + i) & 8) != 0) { s += 136; } else { s ^= 139; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 500) { acc += s; } else { acc -= i; }
            a[(s ^ 47) & 7] += i;
            s = s < 0 ? -s : s + 84;
            if (((s + i) & 1) != 0) { s += 121; } else { s ^= 124; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 9750) { acc += s; } else { acc -= i; }
            a[(s ^ 32) & 7] += i;
            s = s < 0 ? -s : s + 69;
            if (((s + i) & 2) != 0) { s += 106; } else { s ^= 109; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 9000) { acc += s; } else { acc -= i; }
            a[(s ^ 17) & 7] += i;
            s = s < 0 ? -s : s + 54;
            if (((s + i) & 4) != 0) { s += 91; } else { s ^= 94; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 8250) { acc += s; } else { acc -= i; }
            a[(s ^ 2) & 7] += i;
            s = s < 0 ? -s : s + 39;
            if (((s + i) & 8) != 0) { s += 76; } else { s ^= 79; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 7500) { acc += s; } else { acc -= i; }
            a[(s ^ 187) & 7] += i;
            s = s < 0 ? -s : s + 24;
            if (((s + i) & 1) != 0) { s += 61; } else { s ^= 64; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 6750) { acc += s; } else { acc -= i; }
            a[(s ^ 172) & 7] += i;
            s = s < 0 ? -s : s + 9;
            if (((s + i) & 2) != 0) { s += 46; } else { s ^= 49; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 6000) { acc += s; } else { acc -= i; }
            a[(s ^ 157) & 7] += i;
            s = s < 0 ? -s : s + 194;
            if (((s + i) & 4) != 0) { s += 31; } else { s ^= 34; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 5250) { acc += s; } else { acc -= i; }
            a[(s ^ 142) & 7] += i;
            s = s < 0 ? -s : s + 179;
            if (((s + i) & 8) != 0) { s += 16; } else { s ^= 19; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 4500) { acc += s; } else { acc -= i; }
            a[(s ^ 127) & 7] += i;
            s = s < 0 ? -s : s + 164;
            if (((s + i) & 1) != 0) { s += 1; } else { s ^= 4; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 3750) { acc += s; } else { acc -= i; }
            a[(s ^ 112) & 7] += i;
            s = s < 0 ? -s : s + 149;
            if (((s + i) & 2) != 0) { s += 186; } else { s ^= 189; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 3000) { acc += s; } else { acc -= i; }
            a[(s ^ 97) & 7] += i;
            s = s < 0 ? -s : s + 134;
            if (((s + i) & 4) != 0) { s += 171; } else { s ^= 174; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 2250) { acc += s; } else { acc -= i; }
            a[(s ^ 82) & 7] += i;
            s = s < 0 ? -s : s + 119;
            if (((s + i) & 8) != 0) { s += 156; } else { s ^= 159; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 1500) { acc += s; } else { acc -= i; }
            a[(s ^ 67) & 7] += i;
            s = s < 0 ? -s : s + 104;
            if (((s + i) & 1) != 0) { s += 141; } else { s ^= 144; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 750) { acc += s; } else { acc -= i; }
            a[(s ^ 52) & 7] += i;
            s = s < 0 ? -s : s + 89;
            if (((s + i) & 2) != 0) { s += 126; } else { s ^= 129; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 10000) { acc += s; } else { acc -= i; }
            a[(s ^ 37) & 7] += i;
            s = s < 0 ? -s : s + 74;
            if (((s + i) & 4) != 0) { s += 111; } else { s ^= 114; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 9250) { acc += s; } else { acc -= i; }
            a[(s ^ 22) & 7] += i;
            s = s < 0 ? -s : s + 59;
            if (((s + i) & 8) != 0) { s += 96; } else { s ^= 99; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 8500) { acc += s; } else { acc -= i; }
            a[(s ^ 7) & 7] += i;
            s = s < 0 ? -s : s + 44;
            if (((s + i) & 1) != 0) { s += 81; } else { s ^= 84; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 7750) { acc += s; } else { acc -= i; }
            a[(s ^ 192) & 7] += i;
            s = s < 0 ? -s : s + 29;
            if (((s + i) & 2) != 0) { s += 66; } else { s ^= 69; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 7000) { acc += s; } else { acc -= i; }
            a[(s ^ 177) & 7] += i;
            s = s < 0 ? -s : s + 14;
            if (((s + i) & 4) != 0) { s += 51; } else { s ^= 54; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 6250) { acc += s; } else { acc -= i; }
            a[(s ^ 162) & 7] += i;
            s = s < 0 ? -s : s + 199;
            if (((s + i) & 8) != 0) { s += 36; } else { s ^= 39; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 5500) { acc += s; } else { acc -= i; }
            a[(s ^ 147) & 7] += i;
            s = s < 0 ? -s : s + 184;
            if (((s + i) & 1) != 0) { s += 21; } else { s ^= 24; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 4750) { acc += s; } else { acc -= i; }
            a[(s ^ 132) & 7] += i;
            s = s < 0 ? -s : s + 169;
            if (((s + i) & 2) != 0) { s += 6; } else { s ^= 9; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 4000) { acc += s; } else { acc -= i; }
            a[(s ^ 117) & 7] += i;
            s = s < 0 ? -s : s + 154;
            if (((s + i) & 4) != 0) { s += 191; } else { s ^= 194; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 3250) { acc += s; } else { acc -= i; }
            a[(s ^ 102) & 7] += i;
            s = s < 0 ? -s : s + 139;
            if (((s + i) & 8) != 0) { s += 176; } else { s ^= 179; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 2500) { acc += s; } else { acc -= i; }
            a[(s ^ 87) & 7] += i;
            s = s < 0 ? -s : s + 124;
            if (((s + i) & 1) != 0) { s += 161; } else { s ^= 164; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 1750) { acc += s; } else { acc -= i; }
            a[(s ^ 72) & 7] += i;
            s = s < 0 ? -s : s + 109;
            if (((s + i) & 2) != 0) { s += 146; } else { s ^= 149; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 1000) { acc += s; } else { acc -= i; }
            a[(s ^ 57) & 7] += i;
            s = s < 0 ? -s : s + 94;
            if (((s + i) & 4) != 0) { s += 131; } else { s ^= 134; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 250) { acc += s; } else { acc -= i; }
            a[(s ^ 42) & 7] += i;
            s = s < 0 ? -s : s + 79;
            if (((s + i) & 8) != 0) { s += 116; } else { s ^= 119; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 9500) { acc += s; } else { acc -= i; }
            a[(s ^ 27) & 7] += i;
            s = s < 0 ? -s : s + 64;
            if (((s + i) & 1) != 0) { s += 101; } else { s ^= 104; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 8750) { acc += s; } else { acc -= i; }
            a[(s ^ 12) & 7] += i;
            s = s < 0 ? -s : s + 49;
            if (((s + i) & 2) != 0) { s += 86; } else { s ^= 89; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 8000) { acc += s; } else { acc -= i; }
            a[(s ^ 197) & 7] += i;
            s = s < 0 ? -s : s + 34;
            if (((s + i) & 4) != 0) { s += 71; } else { s ^= 74; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 7250) { acc += s; } else { acc -= i; }
            a[(s ^ 182) & 7] += i;
            s = s < 0 ? -s : s + 19;
            if (((s + i) & 8) != 0) { s += 56; } else { s ^= 59; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 6500) { acc += s; } else { acc -= i; }
            a[(s ^ 167) & 7] += i;
            s = s < 0 ? -s : s + 4;
            if (((s + i) & 1) != 0) { s += 41; } else { s ^= 44; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 5750) { acc += s; } else { acc -= i; }
            a[(s ^ 152) & 7] += i;
            s = s < 0 ? -s : s + 189;
            if (((s + i) & 2) != 0) { s += 26; } else { s ^= 29; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 5000) { acc += s; } else { acc -= i; }
            a[(s ^ 137) & 7] += i;
            s = s < 0 ? -s : s + 174;
            if (((s + i) & 4) != 0) { s += 11; } else { s ^= 14; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 4250) { acc += s; } else { acc -= i; }
            a[(s ^ 122) & 7] += i;
            s = s < 0 ? -s : s + 159;
            if (((s + i) & 8) != 0) { s += 196; } else { s ^= 199; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 3500) { acc += s; } else { acc -= i; }
            a[(s ^ 107) & 7] += i;
            s = s < 0 ? -s : s + 144;
            if (((s + i) & 1) != 0) { s += 181; } else { s ^= 184; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 2750) { acc += s; } else { acc -= i; }
            a[(s ^ 92) & 7] += i;
            s = s < 0 ? -s : s + 129;
            if (((s + i) & 2) != 0) { s += 166; } else { s ^= 169; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 2000) { acc += s; } else { acc -= i; }
            a[(s ^ 77) & 7] += i;
            s = s < 0 ? -s : s + 114;
            if (((s + i) & 4) != 0) { s += 151; } else { s ^= 154; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 1250) { acc += s; } else { acc -= i; }
            a[(s ^ 62) & 7] += i;
            s = s < 0 ? -s : s + 99;
            if (((s + i) & 8) != 0) { s += 136; } else { s ^= 139; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 500) { acc += s; } else { acc -= i; }
            a[(s ^ 47) & 7] += i;
            s = s < 0 ? -s : s + 84;
            if (((s + i) & 1) != 0) { s += 121; } else { s ^= 124; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 9750) { acc += s; } else { acc -= i; }
            a[(s ^ 32) & 7] += i;
            s = s < 0 ? -s : s + 69;
            if (((s + i) & 2) != 0) { s += 106; } else { s ^= 109; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 9000) { acc += s; } else { acc -= i; }
            a[(s ^ 17) & 7] += i;
            s = s < 0 ? -s : s + 54;
            if (((s + i) & 4) != 0) { s += 91; } else { s ^= 94; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 8250) { acc += s; } else { acc -= i; }
            a[(s ^ 2) & 7] += i;
            s = s < 0 ? -s : s + 39;
        }
        return acc + s + a[0] + a[7];
    }

    public static long ifAroundBulk(int n, boolean taken) {
        int s = n;
        long acc = 0;
        int[] a = new int[8];
        int i = n;
        if (taken) {
            if (((s + i) & 1) != 0) { s += 1; } else { s ^= 4; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 3750) { acc += s; } else { acc -= i; }
            a[(s ^ 112) & 7] += i;
            s = s < 0 ? -s : s + 149;
            if (((s + i) & 2) != 0) { s += 186; } else { s ^= 189; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 3000) { acc += s; } else { acc -= i; }
            a[(s ^ 97) & 7] += i;
            s = s < 0 ? -s : s + 134;
            if (((s + i) & 4) != 0) { s += 171; } else { s ^= 174; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 2250) { acc += s; } else { acc -= i; }
            a[(s ^ 82) & 7] += i;
            s = s < 0 ? -s : s + 119;
            if (((s + i) & 8) != 0) { s += 156; } else { s ^= 159; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 1500) { acc += s; } else { acc -= i; }
            a[(s ^ 67) & 7] += i;
            s = s < 0 ? -s : s + 104;
            if (((s + i) & 1) != 0) { s += 141; } else { s ^= 144; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 750) { acc += s; } else { acc -= i; }
            a[(s ^ 52) & 7] += i;
            s = s < 0 ? -s : s + 89;
            if (((s + i) & 2) != 0) { s += 126; } else { s ^= 129; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 10000) { acc += s; } else { acc -= i; }
            a[(s ^ 37) & 7] += i;
            s = s < 0 ? -s : s + 74;
            if (((s + i) & 4) != 0) { s += 111; } else { s ^= 114; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 9250) { acc += s; } else { acc -= i; }
            a[(s ^ 22) & 7] += i;
            s = s < 0 ? -s : s + 59;
            if (((s + i) & 8) != 0) { s += 96; } else { s ^= 99; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 8500) { acc += s; } else { acc -= i; }
            a[(s ^ 7) & 7] += i;
            s = s < 0 ? -s : s + 44;
            if (((s + i) & 1) != 0) { s += 81; } else { s ^= 84; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 7750) { acc += s; } else { acc -= i; }
            a[(s ^ 192) & 7] += i;
            s = s < 0 ? -s : s + 29;
            if (((s + i) & 2) != 0) { s += 66; } else { s ^= 69; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 7000) { acc += s; } else { acc -= i; }
            a[(s ^ 177) & 7] += i;
            s = s < 0 ? -s : s + 14;
            if (((s + i) & 4) != 0) { s += 51; } else { s ^= 54; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 6250) { acc += s; } else { acc -= i; }
            a[(s ^ 162) & 7] += i;
            s = s < 0 ? -s : s + 199;
            if (((s + i) & 8) != 0) { s += 36; } else { s ^= 39; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 5500) { acc += s; } else { acc -= i; }
            a[(s ^ 147) & 7] += i;
            s = s < 0 ? -s : s + 184;
            if (((s + i) & 1) != 0) { s += 21; } else { s ^= 24; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 4750) { acc += s; } else { acc -= i; }
            a[(s ^ 132) & 7] += i;
            s = s < 0 ? -s : s + 169;
            if (((s + i) & 2) != 0) { s += 6; } else { s ^= 9; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 4000) { acc += s; } else { acc -= i; }
            a[(s ^ 117) & 7] += i;
            s = s < 0 ? -s : s + 154;
            if (((s + i) & 4) != 0) { s += 191; } else { s ^= 194; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 3250) { acc += s; } else { acc -= i; }
            a[(s ^ 102) & 7] += i;
            s = s < 0 ? -s : s + 139;
            if (((s + i) & 8) != 0) { s += 176; } else { s ^= 179; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 2500) { acc += s; } else { acc -= i; }
            a[(s ^ 87) & 7] += i;
            s = s < 0 ? -s : s + 124;
            if (((s + i) & 1) != 0) { s += 161; } else { s ^= 164; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 1750) { acc += s; } else { acc -= i; }
            a[(s ^ 72) & 7] += i;
            s = s < 0 ? -s : s + 109;
            if (((s + i) & 2) != 0) { s += 146; } else { s ^= 149; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 1000) { acc += s; } else { acc -= i; }
            a[(s ^ 57) & 7] += i;
            s = s < 0 ? -s : s + 94;
            if (((s + i) & 4) != 0) { s += 131; } else { s ^= 134; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 250) { acc += s; } else { acc -= i; }
            a[(s ^ 42) & 7] += i;
            s = s < 0 ? -s : s + 79;
            if (((s + i) & 8) != 0) { s += 116; } else { s ^= 119; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 9500) { acc += s; } else { acc -= i; }
            a[(s ^ 27) & 7] += i;
            s = s < 0 ? -s : s + 64;
            if (((s + i) & 1) != 0) { s += 101; } else { s ^= 104; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 8750) { acc += s; } else { acc -= i; }
            a[(s ^ 12) & 7] += i;
            s = s < 0 ? -s : s + 49;
            if (((s + i) & 2) != 0) { s += 86; } else { s ^= 89; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 8000) { acc += s; } else { acc -= i; }
            a[(s ^ 197) & 7] += i;
            s = s < 0 ? -s : s + 34;
            if (((s + i) & 4) != 0) { s += 71; } else { s ^= 74; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 7250) { acc += s; } else { acc -= i; }
            a[(s ^ 182) & 7] += i;
            s = s < 0 ? -s : s + 19;
            if (((s + i) & 8) != 0) { s += 56; } else { s ^= 59; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 6500) { acc += s; } else { acc -= i; }
            a[(s ^ 167) & 7] += i;
            s = s < 0 ? -s : s + 4;
            if (((s + i) & 1) != 0) { s += 41; } else { s ^= 44; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 5750) { acc += s; } else { acc -= i; }
            a[(s ^ 152) & 7] += i;
            s = s < 0 ? -s : s + 189;
            if (((s + i) & 2) != 0) { s += 26; } else { s ^= 29; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 5000) { acc += s; } else { acc -= i; }
            a[(s ^ 137) & 7] += i;
            s = s < 0 ? -s : s + 174;
            if (((s + i) & 4) != 0) { s += 11; } else { s ^= 14; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 4250) { acc += s; } else { acc -= i; }
            a[(s ^ 122) & 7] += i;
            s = s < 0 ? -s : s + 159;
            if (((s + i) & 8) != 0) { s += 196; } else { s ^= 199; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 3500) { acc += s; } else { acc -= i; }
            a[(s ^ 107) & 7] += i;
            s = s < 0 ? -s : s + 144;
            if (((s + i) & 1) != 0) { s += 181; } else { s ^= 184; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 2750) { acc += s; } else { acc -= i; }
            a[(s ^ 92) & 7] += i;
            s = s < 0 ? -s : s + 129;
            if (((s + i) & 2) != 0) { s += 166; } else { s ^= 169; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 2000) { acc += s; } else { acc -= i; }
            a[(s ^ 77) & 7] += i;
            s = s < 0 ? -s : s + 114;
            if (((s + i) & 4) != 0) { s += 151; } else { s ^= 154; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 1250) { acc += s; } else { acc -= i; }
            a[(s ^ 62) & 7] += i;
            s = s < 0 ? -s : s + 99;
            if (((s + i) & 8) != 0) { s += 136; } else { s ^= 139; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 500) { acc += s; } else { acc -= i; }
            a[(s ^ 47) & 7] += i;
            s = s < 0 ? -s : s + 84;
            if (((s + i) & 1) != 0) { s += 121; } else { s ^= 124; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 9750) { acc += s; } else { acc -= i; }
            a[(s ^ 32) & 7] += i;
            s = s < 0 ? -s : s + 69;
            if (((s + i) & 2) != 0) { s += 106; } else { s ^= 109; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 9000) { acc += s; } else { acc -= i; }
            a[(s ^ 17) & 7] += i;
            s = s < 0 ? -s : s + 54;
            if (((s + i) & 4) != 0) { s += 91; } else { s ^= 94; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 8250) { acc += s; } else { acc -= i; }
            a[(s ^ 2) & 7] += i;
            s = s < 0 ? -s : s + 39;
            if (((s + i) & 8) != 0) { s += 76; } else { s ^= 79; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 7500) { acc += s; } else { acc -= i; }
            a[(s ^ 187) & 7] += i;
            s = s < 0 ? -s : s + 24;
            if (((s + i) & 1) != 0) { s += 61; } else { s ^= 64; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 6750) { acc += s; } else { acc -= i; }
            a[(s ^ 172) & 7] += i;
            s = s < 0 ? -s : s + 9;
            if (((s + i) & 2) != 0) { s += 46; } else { s ^= 49; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 6000) { acc += s; } else { acc -= i; }
            a[(s ^ 157) & 7] += i;
            s = s < 0 ? -s : s + 194;
            if (((s + i) & 4) != 0) { s += 31; } else { s ^= 34; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 5250) { acc += s; } else { acc -= i; }
            a[(s ^ 142) & 7] += i;
            s = s < 0 ? -s : s + 179;
            if (((s + i) & 8) != 0) { s += 16; } else { s ^= 19; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 4500) { acc += s; } else { acc -= i; }
            a[(s ^ 127) & 7] += i;
            s = s < 0 ? -s : s + 164;
            if (((s + i) & 1) != 0) { s += 1; } else { s ^= 4; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 3750) { acc += s; } else { acc -= i; }
            a[(s ^ 112) & 7] += i;
            s = s < 0 ? -s : s + 149;
            if (((s + i) & 2) != 0) { s += 186; } else { s ^= 189; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 3000) { acc += s; } else { acc -= i; }
            a[(s ^ 97) & 7] += i;
            s = s < 0 ? -s : s + 134;
            if (((s + i) & 4) != 0) { s += 171; } else { s ^= 174; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 2250) { acc += s; } else { acc -= i; }
            a[(s ^ 82) & 7] += i;
            s = s < 0 ? -s : s + 119;
            if (((s + i) & 8) != 0) { s += 156; } else { s ^= 159; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 1500) { acc += s; } else { acc -= i; }
            a[(s ^ 67) & 7] += i;
            s = s < 0 ? -s : s + 104;
            if (((s + i) & 1) != 0) { s += 141; } else { s ^= 144; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 750) { acc += s; } else { acc -= i; }
            a[(s ^ 52) & 7] += i;
            s = s < 0 ? -s : s + 89;
            if (((s + i) & 2) != 0) { s += 126; } else { s ^= 129; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 10000) { acc += s; } else { acc -= i; }
            a[(s ^ 37) & 7] += i;
            s = s < 0 ? -s : s + 74;
            if (((s + i) & 4) != 0) { s += 111; } else { s ^= 114; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 9250) { acc += s; } else { acc -= i; }
            a[(s ^ 22) & 7] += i;
            s = s < 0 ? -s : s + 59;
            if (((s + i) & 8) != 0) { s += 96; } else { s ^= 99; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 8500) { acc += s; } else { acc -= i; }
            a[(s ^ 7) & 7] += i;
            s = s < 0 ? -s : s + 44;
            if (((s + i) & 1) != 0) { s += 81; } else { s ^= 84; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 7750) { acc += s; } else { acc -= i; }
            a[(s ^ 192) & 7] += i;
            s = s < 0 ? -s : s + 29;
            if (((s + i) & 2) != 0) { s += 66; } else { s ^= 69; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 7000) { acc += s; } else { acc -= i; }
            a[(s ^ 177) & 7] += i;
            s = s < 0 ? -s : s + 14;
            if (((s + i) & 4) != 0) { s += 51; } else { s ^= 54; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 6250) { acc += s; } else { acc -= i; }
            a[(s ^ 162) & 7] += i;
            s = s < 0 ? -s : s + 199;
            if (((s + i) & 8) != 0) { s += 36; } else { s ^= 39; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 5500) { acc += s; } else { acc -= i; }
            a[(s ^ 147) & 7] += i;
            s = s < 0 ? -s : s + 184;
            if (((s + i) & 1) != 0) { s += 21; } else { s ^= 24; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 4750) { acc += s; } else { acc -= i; }
            a[(s ^ 132) & 7] += i;
            s = s < 0 ? -s : s + 169;
            if (((s + i) & 2) != 0) { s += 6; } else { s ^= 9; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 4000) { acc += s; } else { acc -= i; }
            a[(s ^ 117) & 7] += i;
            s = s < 0 ? -s : s + 154;
            if (((s + i) & 4) != 0) { s += 191; } else { s ^= 194; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 3250) { acc += s; } else { acc -= i; }
            a[(s ^ 102) & 7] += i;
            s = s < 0 ? -s : s + 139;
            if (((s + i) & 8) != 0) { s += 176; } else { s ^= 179; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 2500) { acc += s; } else { acc -= i; }
            a[(s ^ 87) & 7] += i;
            s = s < 0 ? -s : s + 124;
            if (((s + i) & 1) != 0) { s += 161; } else { s ^= 164; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 1750) { acc += s; } else { acc -= i; }
            a[(s ^ 72) & 7] += i;
            s = s < 0 ? -s : s + 109;
            if (((s + i) & 2) != 0) { s += 146; } else { s ^= 149; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 1000) { acc += s; } else { acc -= i; }
            a[(s ^ 57) & 7] += i;
            s = s < 0 ? -s : s + 94;
            if (((s + i) & 4) != 0) { s += 131; } else { s ^= 134; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 250) { acc += s; } else { acc -= i; }
            a[(s ^ 42) & 7] += i;
            s = s < 0 ? -s : s + 79;
            if (((s + i) & 8) != 0) { s += 116; } else { s ^= 119; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 9500) { acc += s; } else { acc -= i; }
            a[(s ^ 27) & 7] += i;
            s = s < 0 ? -s : s + 64;
            if (((s + i) & 1) != 0) { s += 101; } else { s ^= 104; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 8750) { acc += s; } else { acc -= i; }
            a[(s ^ 12) & 7] += i;
            s = s < 0 ? -s : s + 49;
            if (((s + i) & 2) != 0) { s += 86; } else { s ^= 89; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 8000) { acc += s; } else { acc -= i; }
            a[(s ^ 197) & 7] += i;
            s = s < 0 ? -s : s + 34;
            if (((s + i) & 4) != 0) { s += 71; } else { s ^= 74; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 7250) { acc += s; } else { acc -= i; }
            a[(s ^ 182) & 7] += i;
            s = s < 0 ? -s : s + 19;
            if (((s + i) & 8) != 0) { s += 56; } else { s ^= 59; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 6500) { acc += s; } else { acc -= i; }
            a[(s ^ 167) & 7] += i;
            s = s < 0 ? -s : s + 4;
            if (((s + i) & 1) != 0) { s += 41; } else { s ^= 44; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 5750) { acc += s; } else { acc -= i; }
            a[(s ^ 152) & 7] += i;
            s = s < 0 ? -s : s + 189;
            if (((s + i) & 2) != 0) { s += 26; } else { s ^= 29; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 5000) { acc += s; } else { acc -= i; }
            a[(s ^ 137) & 7] += i;
            s = s < 0 ? -s : s + 174;
            if (((s + i) & 4) != 0) { s += 11; } else { s ^= 14; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 4250) { acc += s; } else { acc -= i; }
            a[(s ^ 122) & 7] += i;
            s = s < 0 ? -s : s + 159;
            if (((s + i) & 8) != 0) { s += 196; } else { s ^= 199; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 3500) { acc += s; } else { acc -= i; }
            a[(s ^ 107) & 7] += i;
            s = s < 0 ? -s : s + 144;
            if (((s + i) & 1) != 0) { s += 181; } else { s ^= 184; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 2750) { acc += s; } else { acc -= i; }
            a[(s ^ 92) & 7] += i;
            s = s < 0 ? -s : s + 129;
            if (((s + i) & 2) != 0) { s += 166; } else { s ^= 169; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 2000) { acc += s; } else { acc -= i; }
            a[(s ^ 77) & 7] += i;
            s = s < 0 ? -s : s + 114;
            if (((s + i) & 4) != 0) { s += 151; } else { s ^= 154; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 1250) { acc += s; } else { acc -= i; }
            a[(s ^ 62) & 7] += i;
            s = s < 0 ? -s : s + 99;
            if (((s + i) & 8) != 0) { s += 136; } else { s ^= 139; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 500) { acc += s; } else { acc -= i; }
            a[(s ^ 47) & 7] += i;
            s = s < 0 ? -s : s + 84;
            if (((s + i) & 1) != 0) { s += 121; } else { s ^= 124; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 9750) { acc += s; } else { acc -= i; }
            a[(s ^ 32) & 7] += i;
            s = s < 0 ? -s : s + 69;
            if (((s + i) & 2) != 0) { s += 106; } else { s ^= 109; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 9000) { acc += s; } else { acc -= i; }
            a[(s ^ 17) & 7] += i;
            s = s < 0 ? -s : s + 54;
            if (((s + i) & 4) != 0) { s += 91; } else { s ^= 94; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 8250) { acc += s; } else { acc -= i; }
            a[(s ^ 2) & 7] += i;
            s = s < 0 ? -s : s + 39;
            if (((s + i) & 8) != 0) { s += 76; } else { s ^= 79; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 7500) { acc += s; } else { acc -= i; }
            a[(s ^ 187) & 7] += i;
            s = s < 0 ? -s : s + 24;
            if (((s + i) & 1) != 0) { s += 61; } else { s ^= 64; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 6750) { acc += s; } else { acc -= i; }
            a[(s ^ 172) & 7] += i;
            s = s < 0 ? -s : s + 9;
            if (((s + i) & 2) != 0) { s += 46; } else { s ^= 49; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 6000) { acc += s; } else { acc -= i; }
            a[(s ^ 157) & 7] += i;
            s = s < 0 ? -s : s + 194;
            if (((s + i) & 4) != 0) { s += 31; } else { s ^= 34; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 5250) { acc += s; } else { acc -= i; }
            a[(s ^ 142) & 7] += i;
            s = s < 0 ? -s : s + 179;
            if (((s + i) & 8) != 0) { s += 16; } else { s ^= 19; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 4500) { acc += s; } else { acc -= i; }
            a[(s ^ 127) & 7] += i;
            s = s < 0 ? -s : s + 164;
            if (((s + i) & 1) != 0) { s += 1; } else { s ^= 4; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 3750) { acc += s; } else { acc -= i; }
            a[(s ^ 112) & 7] += i;
            s = s < 0 ? -s : s + 149;
            if (((s + i) & 2) != 0) { s += 186; } else { s ^= 189; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 3000) { acc += s; } else { acc -= i; }
            a[(s ^ 97) & 7] += i;
            s = s < 0 ? -s : s + 134;
            if (((s + i) & 4) != 0) { s += 171; } else { s ^= 174; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 2250) { acc += s; } else { acc -= i; }
            a[(s ^ 82) & 7] += i;
            s = s < 0 ? -s : s + 119;
            if (((s + i) & 8) != 0) { s += 156; } else { s ^= 159; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 1500) { acc += s; } else { acc -= i; }
            a[(s ^ 67) & 7] += i;
            s = s < 0 ? -s : s + 104;
            if (((s + i) & 1) != 0) { s += 141; } else { s ^= 144; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 750) { acc += s; } else { acc -= i; }
            a[(s ^ 52) & 7] += i;
            s = s < 0 ? -s : s + 89;
            if (((s + i) & 2) != 0) { s += 126; } else { s ^= 129; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 10000) { acc += s; } else { acc -= i; }
            a[(s ^ 37) & 7] += i;
            s = s < 0 ? -s : s + 74;
            if (((s + i) & 4) != 0) { s += 111; } else { s ^= 114; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 9250) { acc += s; } else { acc -= i; }
            a[(s ^ 22) & 7] += i;
            s = s < 0 ? -s : s + 59;
            if (((s + i) & 8) != 0) { s += 96; } else { s ^= 99; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 8500) { acc += s; } else { acc -= i; }
            a[(s ^ 7) & 7] += i;
            s = s < 0 ? -s : s + 44;
            if (((s + i) & 1) != 0) { s += 81; } else { s ^= 84; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 7750) { acc += s; } else { acc -= i; }
            a[(s ^ 192) & 7] += i;
            s = s < 0 ? -s : s + 29;
            if (((s + i) & 2) != 0) { s += 66; } else { s ^= 69; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 7000) { acc += s; } else { acc -= i; }
            a[(s ^ 177) & 7] += i;
            s = s < 0 ? -s : s + 14;
            if (((s + i) & 4) != 0) { s += 51; } else { s ^= 54; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 6250) { acc += s; } else { acc -= i; }
            a[(s ^ 162) & 7] += i;
            s = s < 0 ? -s : s + 199;
            if (((s + i) & 8) != 0) { s += 36; } else { s ^= 39; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 5500) { acc += s; } else { acc -= i; }
            a[(s ^ 147) & 7] += i;
            s = s < 0 ? -s : s + 184;
            if (((s + i) & 1) != 0) { s += 21; } else { s ^= 24; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 4750) { acc += s; } else { acc -= i; }
            a[(s ^ 132) & 7] += i;
            s = s < 0 ? -s : s + 169;
            if (((s + i) & 2) != 0) { s += 6; } else { s ^= 9; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 4000) { acc += s; } else { acc -= i; }
            a[(s ^ 117) & 7] += i;
            s = s < 0 ? -s : s + 154;
            if (((s + i) & 4) != 0) { s += 191; } else { s ^= 194; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 3250) { acc += s; } else { acc -= i; }
            a[(s ^ 102) & 7] += i;
            s = s < 0 ? -s : s + 139;
            if (((s + i) & 8) != 0) { s += 176; } else { s ^= 179; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 2500) { acc += s; } else { acc -= i; }
            a[(s ^ 87) & 7] += i;
            s = s < 0 ? -s : s + 124;
            if (((s + i) & 1) != 0) { s += 161; } else { s ^= 164; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 1750) { acc += s; } else { acc -= i; }
            a[(s ^ 72) & 7] += i;
            s = s < 0 ? -s : s + 109;
            if (((s + i) & 2) != 0) { s += 146; } else { s ^= 149; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 1000) { acc += s; } else { acc -= i; }
            a[(s ^ 57) & 7] += i;
            s = s < 0 ? -s : s + 94;
            if (((s + i) & 4) != 0) { s += 131; } else { s ^= 134; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 250) { acc += s; } else { acc -= i; }
            a[(s ^ 42) & 7] += i;
            s = s < 0 ? -s : s + 79;
            if (((s + i) & 8) != 0) { s += 116; } else { s ^= 119; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 9500) { acc += s; } else { acc -= i; }
            a[(s ^ 27) & 7] += i;
            s = s < 0 ? -s : s + 64;
            if (((s + i) & 1) != 0) { s += 101; } else { s ^= 104; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 8750) { acc += s; } else { acc -= i; }
            a[(s ^ 12) & 7] += i;
            s = s < 0 ? -s : s + 49;
            if (((s + i) & 2) != 0) { s += 86; } else { s ^= 89; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 8000) { acc += s; } else { acc -= i; }
            a[(s ^ 197) & 7] += i;
            s = s < 0 ? -s : s + 34;
            if (((s + i) & 4) != 0) { s += 71; } else { s ^= 74; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 7250) { acc += s; } else { acc -= i; }
            a[(s ^ 182) & 7] += i;
            s = s < 0 ? -s : s + 19;
            if (((s + i) & 8) != 0) { s += 56; } else { s ^= 59; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 6500) { acc += s; } else { acc -= i; }
            a[(s ^ 167) & 7] += i;
            s = s < 0 ? -s : s + 4;
            if (((s + i) & 1) != 0) { s += 41; } else { s ^= 44; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 5750) { acc += s; } else { acc -= i; }
            a[(s ^ 152) & 7] += i;
            s = s < 0 ? -s : s + 189;
            if (((s + i) & 2) != 0) { s += 26; } else { s ^= 29; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 5000) { acc += s; } else { acc -= i; }
            a[(s ^ 137) & 7] += i;
            s = s < 0 ? -s : s + 174;
            if (((s + i) & 4) != 0) { s += 11; } else { s ^= 14; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 4250) { acc += s; } else { acc -= i; }
            a[(s ^ 122) & 7] += i;
            s = s < 0 ? -s : s + 159;
            if (((s + i) & 8) != 0) { s += 196; } else { s ^= 199; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 3500) { acc += s; } else { acc -= i; }
            a[(s ^ 107) & 7] += i;
            s = s < 0 ? -s : s + 144;
            if (((s + i) & 1) != 0) { s += 181; } else { s ^= 184; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 2750) { acc += s; } else { acc -= i; }
            a[(s ^ 92) & 7] += i;
            s = s < 0 ? -s : s + 129;
            if (((s + i) & 2) != 0) { s += 166; } else { s ^= 169; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 2000) { acc += s; } else { acc -= i; }
            a[(s ^ 77) & 7] += i;
            s = s < 0 ? -s : s + 114;
            if (((s + i) & 4) != 0) { s += 151; } else { s ^= 154; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 1250) { acc += s; } else { acc -= i; }
            a[(s ^ 62) & 7] += i;
            s = s < 0 ? -s : s + 99;
            if (((s + i) & 8) != 0) { s += 136; } else { s ^= 139; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 500) { acc += s; } else { acc -= i; }
            a[(s ^ 47) & 7] += i;
            s = s < 0 ? -s : s + 84;
            if (((s + i) & 1) != 0) { s += 121; } else { s ^= 124; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 9750) { acc += s; } else { acc -= i; }
            a[(s ^ 32) & 7] += i;
            s = s < 0 ? -s : s + 69;
            if (((s + i) & 2) != 0) { s += 106; } else { s ^= 109; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 9000) { acc += s; } else { acc -= i; }
            a[(s ^ 17) & 7] += i;
            s = s < 0 ? -s : s + 54;
            if (((s + i) & 4) != 0) { s += 91; } else { s ^= 94; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 8250) { acc += s; } else { acc -= i; }
            a[(s ^ 2) & 7] += i;
            s = s < 0 ? -s : s + 39;
            if (((s + i) & 8) != 0) { s += 76; } else { s ^= 79; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 7500) { acc += s; } else { acc -= i; }
            a[(s ^ 187) & 7] += i;
            s = s < 0 ? -s : s + 24;
            if (((s + i) & 1) != 0) { s += 61; } else { s ^= 64; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 6750) { acc += s; } else { acc -= i; }
            a[(s ^ 172) & 7] += i;
            s = s < 0 ? -s : s + 9;
            if (((s + i) & 2) != 0) { s += 46; } else { s ^= 49; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 6000) { acc += s; } else { acc -= i; }
            a[(s ^ 157) & 7] += i;
            s = s < 0 ? -s : s + 194;
            if (((s + i) & 4) != 0) { s += 31; } else { s ^= 34; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 5250) { acc += s; } else { acc -= i; }
            a[(s ^ 142) & 7] += i;
            s = s < 0 ? -s : s + 179;
            if (((s + i) & 8) != 0) { s += 16; } else { s ^= 19; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 4500) { acc += s; } else { acc -= i; }
            a[(s ^ 127) & 7] += i;
            s = s < 0 ? -s : s + 164;
            if (((s + i) & 1) != 0) { s += 1; } else { s ^= 4; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 3750) { acc += s; } else { acc -= i; }
            a[(s ^ 112) & 7] += i;
            s = s < 0 ? -s : s + 149;
            if (((s + i) & 2) != 0) { s += 186; } else { s ^= 189; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 3000) { acc += s; } else { acc -= i; }
            a[(s ^ 97) & 7] += i;
            s = s < 0 ? -s : s + 134;
            if (((s + i) & 4) != 0) { s += 171; } else { s ^= 174; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 2250) { acc += s; } else { acc -= i; }
            a[(s ^ 82) & 7] += i;
            s = s < 0 ? -s : s + 119;
            if (((s + i) & 8) != 0) { s += 156; } else { s ^= 159; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 1500) { acc += s; } else { acc -= i; }
            a[(s ^ 67) & 7] += i;
            s = s < 0 ? -s : s + 104;
            if (((s + i) & 1) != 0) { s += 141; } else { s ^= 144; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 750) { acc += s; } else { acc -= i; }
            a[(s ^ 52) & 7] += i;
            s = s < 0 ? -s : s + 89;
            if (((s + i) & 2) != 0) { s += 126; } else { s ^= 129; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 10000) { acc += s; } else { acc -= i; }
            a[(s ^ 37) & 7] += i;
            s = s < 0 ? -s : s + 74;
            if (((s + i) & 4) != 0) { s += 111; } else { s ^= 114; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 9250) { acc += s; } else { acc -= i; }
            a[(s ^ 22) & 7] += i;
            s = s < 0 ? -s : s + 59;
            if (((s + i) & 8) != 0) { s += 96; } else { s ^= 99; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 8500) { acc += s; } else { acc -= i; }
            a[(s ^ 7) & 7] += i;
            s = s < 0 ? -s : s + 44;
            if (((s + i) & 1) != 0) { s += 81; } else { s ^= 84; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 7750) { acc += s; } else { acc -= i; }
            a[(s ^ 192) & 7] += i;
            s = s < 0 ? -s : s + 29;
            if (((s + i) & 2) != 0) { s += 66; } else { s ^= 69; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 7000) { acc += s; } else { acc -= i; }
            a[(s ^ 177) & 7] += i;
            s = s < 0 ? -s : s + 14;
            if (((s + i) & 4) != 0) { s += 51; } else { s ^= 54; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 6250) { acc += s; } else { acc -= i; }
            a[(s ^ 162) & 7] += i;
            s = s < 0 ? -s : s + 199;
            if (((s + i) & 8) != 0) { s += 36; } else { s ^= 39; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 5500) { acc += s; } else { acc -= i; }
            a[(s ^ 147) & 7] += i;
            s = s < 0 ? -s : s + 184;
            if (((s + i) & 1) != 0) { s += 21; } else { s ^= 24; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 4750) { acc += s; } else { acc -= i; }
            a[(s ^ 132) & 7] += i;
            s = s < 0 ? -s : s + 169;
            if (((s + i) & 2) != 0) { s += 6; } else { s ^= 9; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 4000) { acc += s; } else { acc -= i; }
            a[(s ^ 117) & 7] += i;
            s = s < 0 ? -s : s + 154;
            if (((s + i) & 4) != 0) { s += 191; } else { s ^= 194; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 3250) { acc += s; } else { acc -= i; }
            a[(s ^ 102) & 7] += i;
            s = s < 0 ? -s : s + 139;
            if (((s + i) & 8) != 0) { s += 176; } else { s ^= 179; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 2500) { acc += s; } else { acc -= i; }
            a[(s ^ 87) & 7] += i;
            s = s < 0 ? -s : s + 124;
            if (((s + i) & 1) != 0) { s += 161; } else { s ^= 164; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 1750) { acc += s; } else { acc -= i; }
            a[(s ^ 72) & 7] += i;
            s = s < 0 ? -s : s + 109;
            if (((s + i) & 2) != 0) { s += 146; } else { s ^= 149; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 1000) { acc += s; } else { acc -= i; }
            a[(s ^ 57) & 7] += i;
            s = s < 0 ? -s : s + 94;
            if (((s + i) & 4) != 0) { s += 131; } else { s ^= 134; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 250) { acc += s; } else { acc -= i; }
            a[(s ^ 42) & 7] += i;
            s = s < 0 ? -s : s + 79;
            if (((s + i) & 8) != 0) { s += 116; } else { s ^= 119; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 9500) { acc += s; } else { acc -= i; }
            a[(s ^ 27) & 7] += i;
            s = s < 0 ? -s : s + 64;
            if (((s + i) & 1) != 0) { s += 101; } else { s ^= 104; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 8750) { acc += s; } else { acc -= i; }
            a[(s ^ 12) & 7] += i;
            s = s < 0 ? -s : s + 49;
            if (((s + i) & 2) != 0) { s += 86; } else { s ^= 89; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 8000) { acc += s; } else { acc -= i; }
            a[(s ^ 197) & 7] += i;
            s = s < 0 ? -s : s + 34;
            if (((s + i) & 4) != 0) { s += 71; } else { s ^= 74; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 7250) { acc += s; } else { acc -= i; }
            a[(s ^ 182) & 7] += i;
            s = s < 0 ? -s : s + 19;
            if (((s + i) & 8) != 0) { s += 56; } else { s ^= 59; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 6500) { acc += s; } else { acc -= i; }
            a[(s ^ 167) & 7] += i;
            s = s < 0 ? -s : s + 4;
            if (((s + i) & 1) != 0) { s += 41; } else { s ^= 44; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 5750) { acc += s; } else { acc -= i; }
            a[(s ^ 152) & 7] += i;
            s = s < 0 ? -s : s + 189;
            if (((s + i) & 2) != 0) { s += 26; } else { s ^= 29; }
            s = (s << 1) ^ (s >>> 3);
            if (s > 5000) { acc += s; } else { acc -= i; }
            a[(s ^ 137) & 7] += i;
            s = s < 0 ? -s : s + 174;
            if (((s + i) & 4) != 0) { s += 11; } else { s ^= 14; }
            s = (s << 3) ^ (s >>> 3);
            if (s > 4250) { acc += s; } else { acc -= i; }
            a[(s ^ 122) & 7] += i;
            s = s < 0 ? -s : s + 159;
            if (((s + i) & 8) != 0) { s += 196; } else { s ^= 199; }
            s = (s << 2) ^ (s >>> 3);
            if (s > 3500) { acc += s; } else { acc -= i; }
            a[(s ^ 107) & 7] += i;
            s = s < 0 ? -s : s + 144;
        }
        return acc + s + a[1] + a[6];
    }

    public static void main(String[] args) {
        long check = 0;
        for (int n = 0; n < 4; n++) {
            check = check * 13 + loopAroundBulk(n);
        }
        check = check * 13 + ifAroundBulk(5, true);
        check = check * 13 + ifAroundBulk(6, false);
        check = check * 13 + ifAroundBulk(-77, true);
        check = check * 13 + ifAroundBulk(1000003, true);
        System.out.println("BigMethod " + check);
    }
}
