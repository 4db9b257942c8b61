/*
 * bytecount_oracle: an independent oracle for executed-bytecode counts.
 *
 * A JVMTI agent that counts, per (method, bci), the instructions the JVM executes in the methods of
 * some named classes, with ByCounter semantics (see docs/contract.md, "The counting
 * contract"). It shares no code with pytest_bytecount; tests/support/oracle.py drives it.
 *
 *   java -agentpath:/path/libbytecount_oracle.so=out=FILE,events=breakpoint,classes=pkg/A;pkg/B$C;pkg/sub/
 *
 * classes: internal names separated by ';' (an entry ending in '/' is a package prefix and matches
 * every class below it, hidden classes excepted); classes=@LISTFILE reads them one per line.
 * events: `step` (default) counts SingleStep events; `breakpoint` sets a breakpoint on every
 * instruction of every target method instead and counts Breakpoint events, a second, independent
 * way to observe the same executions (see below for what each one gets wrong on HotSpot).
 * Options are separated by ',', so FILE must not contain one.
 *
 * How it counts:
 *  - Each SingleStep (posted before each instruction, once per instruction; a wide-prefixed one is
 *    one step at the prefix's bci) or Breakpoint adds 1 to the current frame's buffer at that bci.
 *  - MethodEntry pushes a frame on a per-thread stack (JVMTI thread-local storage); MethodExit pops
 *    it. A frame popped normally is merged into the global table under a raw monitor and counts one
 *    invocation; a frame popped by an exception is discarded. Frames exist only for target methods,
 *    so a callee's steps never land in its caller (flat counts), and recursion gets one frame per
 *    invocation.
 *  - Target methods are recognised by their jmethodID in a lock-free open-addressing table filled at
 *    ClassPrepare; everything else costs one failed probe per event.
 *
 * HotSpot details this agent relies on or works around:
 *  - can_generate_breakpoint_events is requested (never used) because it makes HotSpot switch off
 *    RewriteFrequentPairs; otherwise pairs such as `iload 4; iload 5` or `aload_0; getfield` are
 *    fused into one interpreter dispatch and post one SingleStep for two instructions.
 *  - JvmtiEnvThreadState::compare_and_set_current_location suppresses a SingleStep at the same
 *    (method, bci) as the previous one posted on that thread ("repeat single step"). In recursion that
 *    hides real instructions: a callee's `return` at bci c followed by its caller's resumption at bci c
 *    (a void method whose self-call is followed by `return`), or a callee's bci 0 when its caller called
 *    it from bci 0. The agent tracks the last posted location and a count of posted steps per thread,
 *    predicts exactly those two cases (the callee's entry, the caller's resumption after
 *    `invoke*` at last_bci + 3 or 5), and when the frame's next event shows that it went on without
 *    any step being posted, counts the hidden instruction itself (statistic `repeat_repaired`). On a
 *    JVM that does post the step, the step arrives and nothing is added.
 *  - SingleStep is hidden while the interpreter resolves a constant-pool entry (JvmtiHideSingleStepping),
 *    e.g. inside a <clinit> triggered by resolution, and in whatever that <clinit> calls. MethodEntry and
 *    MethodExit are still posted, so such a frame completes with no steps at all: it is counted in
 *    `empty_frames`. With events=step the driver initialises the target classes first to keep it at
 *    0; a target method called from a lazily initialised class still trips it (events=breakpoint
 *    does not have this problem).
 *  - Breakpoints are neither hidden during resolution nor suppressed as repeats (the repeat rule only
 *    skips a breakpoint at a location where a single step was just posted, and no step is enabled in
 *    that mode). Setting one is a VM operation (a safepoint): about 0.35 ms per instruction of the
 *    target classes, paid at class preparation.
 *
 * Inclusive counts (option inclusive=@FILE, one target method a line: `class name descriptor`): a
 * frame of a tracked method is *linked* when the frame that called it (GetFrameLocation depth 1) is a
 * tracked method too and it is not a <clinit>; a chain of linked frames down to the first unlinked
 * one is a segment. When a frame completes normally, its steps are handed, for each distinct target
 * method among the frames of its segment (itself included), to the outermost frame of that target
 * there, as pending counts; a target frame that completes normally commits its pending counts to
 * that target, one ending by an exception drops them. So a JDK method calling back into application
 * code (its caller frame is the JDK's) starts a segment the targets below it never see.
 *
 * Output, written at VMDeath:
 *   # bytecount-oracle 1
 *   S <statistic> <n>                                     (always, one per statistic)
 *   M <class-internal-name> <name> <descriptor> <normal-invocations>
 *   <bci> <count>                                         (each bci with count > 0)
 *   A <class-internal-name> <name> <descriptor> <invocations-ended-by-exception>   (when > 0)
 *   <bci> <count>      (one line per executed bci of those invocations, the throwing one included)
 *   I <class> <name> <descriptor>          (with inclusive=@FILE: per target method, after the above)
 *   F <class> <name> <descriptor>          (each method with steps attributed to that target)
 *   <bci> <count>
 */

#include <jvmti.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ORACLE_FORMAT 2

typedef struct MethodInfo {
    jmethodID id;
    char *class_name; /* internal form, pkg/Outer$Inner */
    char *name;
    char *descriptor;
    jint code_length;
    unsigned char *bytecodes; /* original (unrewritten) code, as GetBytecodes returns it */
    /* Global totals, guarded by g_lock. */
    uint64_t invocations;
    uint64_t abrupt;
    uint64_t *counts; /* [code_length] */
    uint64_t *abrupt_counts; /* [code_length]: executions in invocations that ended by an exception */
    int target_index; /* inclusive: index among the target methods, or -1 */
    uint64_t **incl;  /* inclusive: [target][code_length] steps of this method attributed to a target */
    struct MethodInfo *next;
} MethodInfo;

typedef struct Frame {
    MethodInfo *method;
    uint64_t *counts; /* [capacity]; all zero while the frame slot is free */
    jint *touched;    /* bcis whose count went 0 -> 1, so merging and clearing skip the rest */
    jint ntouched;
    jint capacity;
    jlocation last_bci;
    uint64_t steps;
    /* A step the JVM may have suppressed as a repeat: the instruction at pending_bci ran unposted if
     * nothing at all was posted on this thread since tl_posted was pending_posted. */
    jlocation pending_bci; /* -1: none */
    uint64_t pending_posted;
    int linked;              /* inclusive: called by a tracked method (not a <clinit>) */
    struct Attributed *held; /* inclusive: steps held for this frame's target until it exits */
    size_t nheld, held_capacity;
} Frame;

typedef struct Attributed {
    struct MethodInfo *method;
    jint bci;
    uint64_t count;
} Attributed;

typedef struct ThreadStack {
    Frame *frames;
    int depth;
    int capacity;
} ThreadStack;

typedef struct Slot {
    _Atomic(jmethodID) key;
    MethodInfo *value;
} Slot;

typedef struct Table {
    size_t mask;
    size_t used;
    Slot slots[];
} Table;

/* Anomalies: any non-zero value except repeat_repaired means the counts cannot be trusted. */
enum {
    STAT_REPEAT_REPAIRED,  /* instructions whose SingleStep HotSpot suppressed as a repeat (expected) */
    STAT_ENTRY_NOT_AT_0,   /* the first step of a frame was not at bci 0 */
    STAT_EMPTY_FRAMES,     /* a frame returned normally without a single step (hidden stepping) */
    STAT_ORPHAN_STEPS,     /* a step in a target method whose frame is not on top of the stack */
    STAT_UNMATCHED_EXITS,  /* a MethodExit whose frame is not on top of the stack */
    STAT_BAD_LOCATIONS,    /* a step outside the method's code */
    STAT_LAST_NOT_RETURN,  /* a normal exit whose last step was not a *return instruction */
    STAT_LEFT_ON_STACK,    /* frames still open when their thread ended (never merged) */
    STAT_COUNT
};
static const char *const STAT_NAMES[STAT_COUNT] = {
    "repeat_repaired", "entry_not_at_0", "empty_frames", "orphan_steps", "unmatched_exits",
    "bad_locations", "last_not_return", "left_on_stack",
};
static _Atomic uint64_t g_stats[STAT_COUNT];

static jvmtiEnv *g_jvmti;
static jrawMonitorID g_lock;
static _Atomic(Table *) g_table;
static MethodInfo *g_methods; /* registration order, guarded by g_lock */
static char *g_out_path;
static char **g_targets; /* internal names; an entry ending in '/' is a prefix */
static int g_ntargets;
static int g_dead;
static int g_use_breakpoints;
static char **g_incl_targets; /* inclusive: "class name descriptor" per target method */
static int g_nincl_targets;

/* Every SingleStep posted on this thread, target or not: how many, and the last location. Plain
 * __thread (not JVMTI thread-local storage) because it is touched on every event of the VM. */
#define THREAD_LOCAL __thread __attribute__((tls_model("initial-exec")))
static THREAD_LOCAL uint64_t tl_posted;
static THREAD_LOCAL jmethodID tl_last_method;
static THREAD_LOCAL jlocation tl_last_bci;

/* ------------------------------------------------------------------ small helpers */

static void fatal(const char *what) {
    fprintf(stderr, "bytecount_oracle: %s\n", what);
    exit(70);
}

static void check(jvmtiError err, const char *what) {
    if (err != JVMTI_ERROR_NONE) {
        char *name = NULL;
        (*g_jvmti)->GetErrorName(g_jvmti, err, &name);
        fprintf(stderr, "bytecount_oracle: %s failed: %s (%d)\n", what, name ? name : "?", (int)err);
        exit(70);
    }
}

static void *xcalloc(size_t n, size_t size) {
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) fatal("out of memory");
    return p;
}

static char *xstrdup(const char *s) {
    char *p = strdup(s);
    if (!p) fatal("out of memory");
    return p;
}

static void stat_add(int which, uint64_t n) {
    atomic_fetch_add_explicit(&g_stats[which], n, memory_order_relaxed);
}

static void enable(jvmtiEvent event, const char *name) {
    char what[64];
    snprintf(what, sizeof what, "enabling %s events", name);
    check((*g_jvmti)->SetEventNotificationMode(g_jvmti, JVMTI_ENABLE, event, NULL), what);
}

static void lock(void) { check((*g_jvmti)->RawMonitorEnter(g_jvmti, g_lock), "RawMonitorEnter"); }
static void unlock(void) { check((*g_jvmti)->RawMonitorExit(g_jvmti, g_lock), "RawMonitorExit"); }

/* ------------------------------------------------------------------ jmethodID -> MethodInfo */

static size_t hash_id(jmethodID id) {
    uint64_t x = (uint64_t)(uintptr_t)id;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return (size_t)x;
}

/* Lock-free reader: a slot's value is written before its key is published with release order. */
static MethodInfo *lookup(jmethodID id) {
    Table *t = atomic_load_explicit(&g_table, memory_order_acquire);
    size_t i = hash_id(id) & t->mask;
    for (;;) {
        jmethodID k = atomic_load_explicit(&t->slots[i].key, memory_order_acquire);
        if (k == id) return t->slots[i].value;
        if (k == NULL) return NULL;
        i = (i + 1) & t->mask;
    }
}

static Table *table_new(size_t capacity) {
    Table *t = xcalloc(1, sizeof(Table) + capacity * sizeof(Slot));
    t->mask = capacity - 1;
    return t;
}

static void table_put(Table *t, jmethodID id, MethodInfo *m) {
    size_t i = hash_id(id) & t->mask;
    while (atomic_load_explicit(&t->slots[i].key, memory_order_relaxed) != NULL) i = (i + 1) & t->mask;
    t->slots[i].value = m;
    atomic_store_explicit(&t->slots[i].key, id, memory_order_release);
    t->used++;
}

/* Caller holds g_lock. Old tables are never freed: a reader may still be probing one. */
static void table_insert(jmethodID id, MethodInfo *m) {
    Table *t = atomic_load_explicit(&g_table, memory_order_relaxed);
    if ((t->used + 1) * 2 > t->mask + 1) {
        Table *bigger = table_new((t->mask + 1) * 2);
        for (size_t i = 0; i <= t->mask; i++) {
            jmethodID k = atomic_load_explicit(&t->slots[i].key, memory_order_relaxed);
            if (k != NULL) table_put(bigger, k, t->slots[i].value);
        }
        atomic_store_explicit(&g_table, bigger, memory_order_release);
        t = bigger;
    }
    table_put(t, id, m);
}

/* ------------------------------------------------------------------ target classes */

static int is_target(const char *internal_name) {
    if (strchr(internal_name, '.') != NULL) return 0; /* hidden class: pkg/Cls$$Lambda.0x... */
    for (int i = 0; i < g_ntargets; i++) {
        const char *t = g_targets[i];
        size_t n = strlen(t);
        if (n > 0 && t[n - 1] == '/') {
            if (strncmp(internal_name, t, n) == 0) return 1;
        } else if (strcmp(internal_name, t) == 0) {
            return 1;
        }
    }
    return 0;
}

static int32_t read_s4(const unsigned char *code, jint at) {
    return (int32_t)(((uint32_t)code[at] << 24) | ((uint32_t)code[at + 1] << 16) |
                     ((uint32_t)code[at + 2] << 8) | (uint32_t)code[at + 3]);
}

/* Length of the instruction at bci (JVMS 6.5), or -1 when it does not fit in the code. */
static jint instruction_length(const unsigned char *code, jint length, jint bci) {
    static const signed char fixed[256] = {
        /* 0x00 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        /* 0x10 */ 2, 3, 2, 3, 3, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1,
        /* 0x20 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        /* 0x30 */ 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1,
        /* 0x40 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        /* 0x50 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        /* 0x60 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        /* 0x70 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        /* 0x80 */ 1, 1, 1, 1, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        /* 0x90 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 3, 3, 3, 3, 3, 3,
        /* 0xa0 */ 3, 3, 3, 3, 3, 3, 3, 3, 3, 2, 0, 0, 1, 1, 1, 1,
        /* 0xb0 */ 1, 1, 3, 3, 3, 3, 3, 3, 3, 5, 5, 3, 2, 3, 1, 1,
        /* 0xc0 */ 3, 3, 1, 1, 0, 4, 3, 3, 5, 5, -1, -1, -1, -1, -1, -1,
        /* 0xd0 */ -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        /* 0xe0 */ -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        /* 0xf0 */ -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    };
    unsigned char opcode = code[bci];
    jint n = fixed[opcode];
    if (opcode == 0xaa || opcode == 0xab) { /* tableswitch, lookupswitch: padded to 4 bytes */
        jint at = bci + 1 + ((4 - (bci + 1) % 4) % 4);
        if (at + 12 > length) return -1;
        if (opcode == 0xaa) {
            int64_t cases = (int64_t)read_s4(code, at + 8) - read_s4(code, at + 4) + 1;
            if (cases < 0 || at + 12 + 4 * cases > length) return -1;
            n = (jint)(at + 12 + 4 * cases - bci);
        } else {
            int64_t pairs = read_s4(code, at + 4);
            if (pairs < 0 || at + 8 + 8 * pairs > length) return -1;
            n = (jint)(at + 8 + 8 * pairs - bci);
        }
    } else if (opcode == 0xc4) { /* wide: one instruction, at the prefix's bci */
        if (bci + 1 >= length) return -1;
        n = code[bci + 1] == 0x84 ? 6 : 4;
    }
    return (n > 0 && bci + n <= length) ? n : -1;
}

static int incl_target_index(const char *class_name, const char *name, const char *descriptor) {
    char key[4096];
    snprintf(key, sizeof key, "%s %s %s", class_name, name, descriptor);
    for (int i = 0; i < g_nincl_targets; i++)
        if (strcmp(g_incl_targets[i], key) == 0) return i;
    return -1;
}

static void set_breakpoints(jvmtiEnv *jvmti, MethodInfo *m) {
    for (jint bci = 0; bci < m->code_length;) {
        jint n = instruction_length(m->bytecodes, m->code_length, bci);
        if (n < 0) {
            fprintf(stderr, "bytecount_oracle: cannot decode %s.%s%s at bci %d\n", m->class_name, m->name,
                    m->descriptor, (int)bci);
            exit(70);
        }
        check((*jvmti)->SetBreakpoint(jvmti, m->id, (jlocation)bci), "SetBreakpoint");
        bci += n;
    }
}

static void register_class(jvmtiEnv *jvmti, jclass klass) {
    char *signature = NULL;
    if ((*jvmti)->GetClassSignature(jvmti, klass, &signature, NULL) != JVMTI_ERROR_NONE) return;
    size_t len = strlen(signature);
    if (len < 3 || signature[0] != 'L' || signature[len - 1] != ';') {
        (*jvmti)->Deallocate(jvmti, (unsigned char *)signature);
        return; /* arrays and primitives */
    }
    char *internal_name = xcalloc(len - 1, 1);
    memcpy(internal_name, signature + 1, len - 2);
    (*jvmti)->Deallocate(jvmti, (unsigned char *)signature);
    if (!is_target(internal_name)) {
        free(internal_name);
        return;
    }

    jint nmethods = 0;
    jmethodID *methods = NULL;
    check((*jvmti)->GetClassMethods(jvmti, klass, &nmethods, &methods), "GetClassMethods");
    MethodInfo **added = xcalloc((size_t)nmethods, sizeof(MethodInfo *));
    jint nadded = 0;
    lock();
    for (jint i = 0; i < nmethods; i++) {
        jmethodID id = methods[i];
        if (lookup(id) != NULL) continue; /* seen at VMInit and again at ClassPrepare */
        jint modifiers = 0;
        check((*jvmti)->GetMethodModifiers(jvmti, id, &modifiers), "GetMethodModifiers");
        if (modifiers & (0x0100 | 0x0400)) continue; /* native, abstract: no code */
        jlocation start = 0, end = -1;
        check((*jvmti)->GetMethodLocation(jvmti, id, &start, &end), "GetMethodLocation");
        if (start != 0 || end < 0) continue;
        char *name = NULL, *descriptor = NULL;
        check((*jvmti)->GetMethodName(jvmti, id, &name, &descriptor, NULL), "GetMethodName");

        MethodInfo *m = xcalloc(1, sizeof(MethodInfo));
        m->id = id;
        m->class_name = xstrdup(internal_name);
        m->name = xstrdup(name);
        m->descriptor = xstrdup(descriptor);
        m->code_length = (jint)(end + 1);
        m->counts = xcalloc((size_t)m->code_length, sizeof(uint64_t));
        m->abrupt_counts = xcalloc((size_t)m->code_length, sizeof(uint64_t));
        m->target_index = incl_target_index(internal_name, name, descriptor);
        (*jvmti)->Deallocate(jvmti, (unsigned char *)name);
        (*jvmti)->Deallocate(jvmti, (unsigned char *)descriptor);
        jint count = 0;
        unsigned char *code = NULL;
        check((*jvmti)->GetBytecodes(jvmti, id, &count, &code), "GetBytecodes");
        if (count != m->code_length) fatal("GetBytecodes and GetMethodLocation disagree on a code length");
        m->bytecodes = xcalloc((size_t)count, 1);
        memcpy(m->bytecodes, code, (size_t)count);
        (*jvmti)->Deallocate(jvmti, code);
        m->next = g_methods;
        g_methods = m;
        table_insert(id, m);
        added[nadded++] = m;
    }
    unlock();
    /* Outside the lock: each SetBreakpoint is a VM operation. No code of the class has run yet. */
    if (g_use_breakpoints)
        for (jint i = 0; i < nadded; i++) set_breakpoints(jvmti, added[i]);
    free(added);
    (*jvmti)->Deallocate(jvmti, (unsigned char *)methods);
    free(internal_name);
}

/* ------------------------------------------------------------------ per-thread frame stacks */

static ThreadStack *thread_stack(jvmtiEnv *jvmti, int create) {
    ThreadStack *ts = NULL;
    (*jvmti)->GetThreadLocalStorage(jvmti, NULL, (void **)&ts);
    if (ts == NULL && create) {
        ts = xcalloc(1, sizeof(ThreadStack));
        check((*jvmti)->SetThreadLocalStorage(jvmti, NULL, ts), "SetThreadLocalStorage");
    }
    return ts;
}

static void frame_clear(Frame *f) {
    for (jint i = 0; i < f->ntouched; i++) f->counts[f->touched[i]] = 0;
    f->ntouched = 0;
    f->steps = 0;
    f->method = NULL;
}

static void count_step(Frame *f, jlocation bci) {
    if (f->steps == 0 && bci != 0) stat_add(STAT_ENTRY_NOT_AT_0, 1);
    if (f->counts[bci]++ == 0) f->touched[f->ntouched++] = (jint)bci;
    f->steps++;
    f->last_bci = bci;
}

/* The frame does something (steps, calls, exits): if nothing was posted since its pending step was
 * predicted, the JVM ran that instruction without posting it. */
static void resolve_pending(Frame *f, uint64_t posted_before_event) {
    if (f->pending_bci < 0) return;
    if (posted_before_event == f->pending_posted) {
        count_step(f, f->pending_bci);
        stat_add(STAT_REPEAT_REPAIRED, 1);
    }
    f->pending_bci = -1;
}

static void expect_repeat(Frame *f, jlocation bci) {
    if (!g_use_breakpoints && tl_posted > 0 && tl_last_method == f->method->id && tl_last_bci == bci) {
        f->pending_bci = bci;
        f->pending_posted = tl_posted;
    }
}

/* Where a frame goes on after the invoke it last stepped on returns normally (JVMS 6.5 invoke*). */
static jlocation resumption_bci(const Frame *f) {
    if (f->last_bci < 0) return -1;
    unsigned char opcode = f->method->bytecodes[f->last_bci];
    if (opcode >= 0xb6 && opcode <= 0xb8) return f->last_bci + 3; /* invokevirtual/special/static */
    if (opcode == 0xb9 || opcode == 0xba) return f->last_bci + 5; /* invokeinterface/dynamic */
    return -1;
}

static void JNICALL on_method_entry(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method) {
    (void)jni;
    MethodInfo *m = lookup(method);
    if (m == NULL) return;
    ThreadStack *ts = thread_stack(jvmti, 1);
    if (ts->depth > 0) resolve_pending(&ts->frames[ts->depth - 1], tl_posted);
    if (ts->depth == ts->capacity) {
        int capacity = ts->capacity ? ts->capacity * 2 : 16;
        Frame *frames = realloc(ts->frames, (size_t)capacity * sizeof(Frame));
        if (!frames) fatal("out of memory");
        memset(frames + ts->capacity, 0, (size_t)(capacity - ts->capacity) * sizeof(Frame));
        ts->frames = frames;
        ts->capacity = capacity;
    }
    Frame *f = &ts->frames[ts->depth++];
    if (f->capacity < m->code_length) { /* slots are reused, so this allocates only on growth */
        free(f->counts);
        free(f->touched);
        f->counts = xcalloc((size_t)m->code_length, sizeof(uint64_t));
        f->touched = xcalloc((size_t)m->code_length, sizeof(jint));
        f->capacity = m->code_length;
    }
    f->method = m;
    f->ntouched = 0;
    f->steps = 0;
    f->last_bci = -1;
    f->pending_bci = -1;
    f->nheld = 0;
    f->linked = 0;
    if (g_nincl_targets > 0 && strcmp(m->name, "<clinit>") != 0) {
        jmethodID here = NULL, caller = NULL;
        jlocation at = 0;
        check((*jvmti)->GetFrameLocation(jvmti, thread, 0, &here, &at), "GetFrameLocation(0)");
        if (here != method) fatal("MethodEntry: the frame at depth 0 is not the method entered");
        if ((*jvmti)->GetFrameLocation(jvmti, thread, 1, &caller, &at) == JVMTI_ERROR_NONE && caller != NULL)
            f->linked = lookup(caller) != NULL;
    }
    expect_repeat(f, 0); /* called from bci 0 of the same method: its own bci 0 repeats that location */
}

static void JNICALL on_single_step(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method,
                                   jlocation location) {
    (void)jni; (void)thread;
    uint64_t posted_before = tl_posted;
    tl_posted = posted_before + 1;
    tl_last_method = method;
    tl_last_bci = location;
    MethodInfo *m = lookup(method);
    if (m == NULL) return;
    ThreadStack *ts = thread_stack(jvmti, 0);
    if (ts == NULL || ts->depth == 0 || ts->frames[ts->depth - 1].method != m) {
        stat_add(STAT_ORPHAN_STEPS, 1);
        return;
    }
    if (location < 0 || location >= m->code_length) {
        stat_add(STAT_BAD_LOCATIONS, 1);
        return;
    }
    Frame *f = &ts->frames[ts->depth - 1];
    if (f->pending_bci == location) f->pending_bci = -1; /* posted after all: this JVM does not suppress */
    resolve_pending(f, posted_before);
    count_step(f, location);
}

/* Same bookkeeping as a step; expect_repeat never predicts anything in this mode. */
static void JNICALL on_breakpoint(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method,
                                  jlocation location) {
    on_single_step(jvmti, jni, thread, method, location);
}

static int is_return(unsigned char opcode) { return opcode >= 0xac && opcode <= 0xb1; }

static void hold(Frame *owner, MethodInfo *m, jint bci, uint64_t count) {
    if (owner->nheld == owner->held_capacity) {
        size_t capacity = owner->held_capacity ? owner->held_capacity * 2 : 64;
        Attributed *held = realloc(owner->held, capacity * sizeof(Attributed));
        if (!held) fatal("out of memory");
        owner->held = held;
        owner->held_capacity = capacity;
    }
    owner->held[owner->nheld].method = m;
    owner->held[owner->nheld].bci = bci;
    owner->held[owner->nheld].count = count;
    owner->nheld++;
}

/* Frame f (now at index ts->depth) exits. Normally: its steps go to the outermost frame of each
 * target in its segment; then a target frame commits what it holds. By an exception: it drops them. */
static void inclusive_exit(ThreadStack *ts, Frame *f, int normal) {
    if (normal && f->steps > 0) {
        int seen[64];
        int nseen = 0;
        int owners[64];
        for (int i = ts->depth; i >= 0; i--) { /* f itself, then its callers while linked */
            Frame *g = &ts->frames[i];
            int t = g->method->target_index;
            if (t >= 0) {
                int j = 0;
                while (j < nseen && seen[j] != t) j++;
                if (j == nseen) {
                    if (nseen == 64) fatal("inclusive: more than 64 distinct targets in one segment");
                    seen[nseen++] = t;
                }
                owners[j] = i; /* deeper frames of the same target overwrite: the outermost wins */
            }
            if (!g->linked) break;
        }
        for (int j = 0; j < nseen; j++)
            for (jint k = 0; k < f->ntouched; k++)
                hold(&ts->frames[owners[j]], f->method, f->touched[k], f->counts[f->touched[k]]);
    }
    if (f->nheld > 0 && normal) {
        int t = f->method->target_index;
        lock();
        for (size_t k = 0; k < f->nheld; k++) {
            MethodInfo *m = f->held[k].method;
            if (m->incl == NULL) m->incl = xcalloc((size_t)g_nincl_targets, sizeof(uint64_t *));
            if (m->incl[t] == NULL) m->incl[t] = xcalloc((size_t)m->code_length, sizeof(uint64_t));
            m->incl[t][f->held[k].bci] += f->held[k].count;
        }
        unlock();
    }
    f->nheld = 0;
}

static void JNICALL on_method_exit(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method,
                                   jboolean was_popped_by_exception, jvalue return_value) {
    (void)jni; (void)thread; (void)return_value;
    MethodInfo *m = lookup(method);
    if (m == NULL) return;
    ThreadStack *ts = thread_stack(jvmti, 0);
    if (ts == NULL || ts->depth == 0 || ts->frames[ts->depth - 1].method != m) {
        stat_add(STAT_UNMATCHED_EXITS, 1);
        return;
    }
    Frame *f = &ts->frames[--ts->depth];
    resolve_pending(f, tl_posted);
    if (g_nincl_targets > 0) inclusive_exit(ts, f, !was_popped_by_exception);
    if (was_popped_by_exception) {
        lock();
        m->abrupt++;
        for (jint i = 0; i < f->ntouched; i++) {
            jint bci = f->touched[i];
            m->abrupt_counts[bci] += f->counts[bci];
        }
        unlock();
        frame_clear(f);
        return;
    }
    if (f->steps == 0) stat_add(STAT_EMPTY_FRAMES, 1);
    else if (!is_return(m->bytecodes[f->last_bci])) stat_add(STAT_LAST_NOT_RETURN, 1);
    lock();
    m->invocations++;
    for (jint i = 0; i < f->ntouched; i++) {
        jint bci = f->touched[i];
        m->counts[bci] += f->counts[bci];
    }
    unlock();
    frame_clear(f);
    if (ts->depth > 0) {
        Frame *caller = &ts->frames[ts->depth - 1];
        jlocation resume = resumption_bci(caller);
        if (resume >= 0) expect_repeat(caller, resume);
    }
}

static void JNICALL on_thread_end(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread) {
    (void)jni; (void)thread;
    ThreadStack *ts = thread_stack(jvmti, 0);
    if (ts == NULL) return;
    (*jvmti)->SetThreadLocalStorage(jvmti, NULL, NULL);
    if (ts->depth > 0) stat_add(STAT_LEFT_ON_STACK, (uint64_t)ts->depth);
    for (int i = 0; i < ts->capacity; i++) {
        free(ts->frames[i].counts);
        free(ts->frames[i].touched);
        free(ts->frames[i].held);
    }
    free(ts->frames);
    free(ts);
}

/* ------------------------------------------------------------------ lifecycle */

static void JNICALL on_class_prepare(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jclass klass) {
    (void)jni; (void)thread;
    register_class(jvmti, klass);
}

static void JNICALL on_vm_init(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread) {
    (void)jni; (void)thread;
    /* Classes prepared before ClassPrepare was posted (start phase) are picked up here. */
    jint nclasses = 0;
    jclass *classes = NULL;
    check((*jvmti)->GetLoadedClasses(jvmti, &nclasses, &classes), "GetLoadedClasses");
    for (jint i = 0; i < nclasses; i++) {
        jint status = 0;
        if ((*jvmti)->GetClassStatus(jvmti, classes[i], &status) == JVMTI_ERROR_NONE &&
            (status & JVMTI_CLASS_STATUS_PREPARED))
            register_class(jvmti, classes[i]);
    }
    (*jvmti)->Deallocate(jvmti, (unsigned char *)classes);
    enable(JVMTI_EVENT_METHOD_ENTRY, "MethodEntry");
    enable(JVMTI_EVENT_METHOD_EXIT, "MethodExit");
    if (g_use_breakpoints)
        enable(JVMTI_EVENT_BREAKPOINT, "Breakpoint");
    else
        enable(JVMTI_EVENT_SINGLE_STEP, "SingleStep");
}

static void write_results(void) {
    FILE *out = fopen(g_out_path, "w");
    if (out == NULL) {
        perror(g_out_path);
        return;
    }
    fprintf(out, "# bytecount-oracle %d\n", ORACLE_FORMAT);
    for (int i = 0; i < STAT_COUNT; i++)
        fprintf(out, "S %s %llu\n", STAT_NAMES[i], (unsigned long long)atomic_load(&g_stats[i]));
    for (MethodInfo *m = g_methods; m != NULL; m = m->next) {
        if (m->invocations > 0) {
            fprintf(out, "M %s %s %s %llu\n", m->class_name, m->name, m->descriptor,
                    (unsigned long long)m->invocations);
            for (jint bci = 0; bci < m->code_length; bci++)
                if (m->counts[bci] > 0) fprintf(out, "%d %llu\n", (int)bci, (unsigned long long)m->counts[bci]);
        }
        if (m->abrupt > 0) {
            fprintf(out, "A %s %s %s %llu\n", m->class_name, m->name, m->descriptor, (unsigned long long)m->abrupt);
            for (jint bci = 0; bci < m->code_length; bci++)
                if (m->abrupt_counts[bci] > 0)
                    fprintf(out, "%d %llu\n", (int)bci, (unsigned long long)m->abrupt_counts[bci]);
        }
    }
    for (int t = 0; t < g_nincl_targets; t++) {
        fprintf(out, "I %s\n", g_incl_targets[t]);
        for (MethodInfo *m = g_methods; m != NULL; m = m->next) {
            if (m->incl == NULL || m->incl[t] == NULL) continue;
            fprintf(out, "F %s %s %s\n", m->class_name, m->name, m->descriptor);
            for (jint bci = 0; bci < m->code_length; bci++)
                if (m->incl[t][bci] > 0) fprintf(out, "%d %llu\n", (int)bci, (unsigned long long)m->incl[t][bci]);
        }
    }
    if (fclose(out) != 0) perror(g_out_path);
}

static void JNICALL on_vm_death(jvmtiEnv *jvmti, JNIEnv *jni) {
    (void)jvmti; (void)jni;
    lock();
    if (!g_dead) {
        g_dead = 1;
        write_results();
    }
    unlock();
}

/* ------------------------------------------------------------------ options */

static void add_target(const char *start, size_t n) {
    while (n > 0 && (start[n - 1] == '\n' || start[n - 1] == '\r' || start[n - 1] == ' ')) n--;
    while (n > 0 && *start == ' ') { start++; n--; }
    if (n == 0) return;
    char *name = xcalloc(n + 1, 1);
    memcpy(name, start, n);
    for (char *p = name; *p; p++)
        if (*p == '.') *p = '/'; /* accept dotted names too; hidden classes are excluded anyway */
    g_targets = realloc(g_targets, (size_t)(g_ntargets + 1) * sizeof(char *));
    if (!g_targets) fatal("out of memory");
    g_targets[g_ntargets++] = name;
}

static void parse_targets(const char *list, char separator) {
    const char *p = list;
    while (*p) {
        const char *end = strchr(p, separator);
        size_t n = end ? (size_t)(end - p) : strlen(p);
        add_target(p, n);
        p += n;
        if (*p) p++;
    }
}

static void read_target_file(const char *path) {
    FILE *in = fopen(path, "r");
    if (in == NULL) {
        perror(path);
        fatal("cannot read the classes=@FILE list");
    }
    char line[4096];
    while (fgets(line, sizeof line, in) != NULL) add_target(line, strlen(line));
    fclose(in);
}

static void read_inclusive_targets(const char *path) {
    FILE *in = fopen(path, "r");
    if (in == NULL) {
        perror(path);
        fatal("cannot read the inclusive=@FILE list");
    }
    char line[4096];
    while (fgets(line, sizeof line, in) != NULL) {
        size_t n = strlen(line);
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = '\0';
        if (n == 0) continue;
        g_incl_targets = realloc(g_incl_targets, (size_t)(g_nincl_targets + 1) * sizeof(char *));
        if (!g_incl_targets) fatal("out of memory");
        g_incl_targets[g_nincl_targets++] = xstrdup(line);
    }
    fclose(in);
}

static void parse_options(const char *options) {
    if (options == NULL) fatal("options required: out=FILE,classes=pkg/A;pkg/B$C;pkg/prefix/");
    char *copy = xstrdup(options);
    char *save = NULL;
    for (char *item = strtok_r(copy, ",", &save); item != NULL; item = strtok_r(NULL, ",", &save)) {
        if (strncmp(item, "out=", 4) == 0) {
            g_out_path = xstrdup(item + 4);
        } else if (strcmp(item, "events=step") == 0) {
            g_use_breakpoints = 0;
        } else if (strcmp(item, "events=breakpoint") == 0) {
            g_use_breakpoints = 1;
        } else if (strncmp(item, "inclusive=@", 11) == 0) {
            read_inclusive_targets(item + 11);
        } else if (strncmp(item, "classes=@", 9) == 0) {
            read_target_file(item + 9);
        } else if (strncmp(item, "classes=", 8) == 0) {
            parse_targets(item + 8, ';');
        } else {
            fprintf(stderr, "bytecount_oracle: unknown option '%s'\n", item);
            exit(70);
        }
    }
    free(copy);
    if (g_out_path == NULL || *g_out_path == '\0') fatal("missing option out=FILE");
    if (g_ntargets == 0) fatal("missing option classes=... (no target classes)");
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved) {
    (void)reserved;
    if ((*vm)->GetEnv(vm, (void **)&g_jvmti, JVMTI_VERSION_1_2) != JNI_OK || g_jvmti == NULL) {
        fprintf(stderr, "bytecount_oracle: this JVM offers no JVMTI 1.2 environment\n");
        return JNI_ERR;
    }
    parse_options(options);

    jvmtiCapabilities potential, wanted;
    memset(&potential, 0, sizeof potential);
    memset(&wanted, 0, sizeof wanted);
    check((*g_jvmti)->GetPotentialCapabilities(g_jvmti, &potential), "GetPotentialCapabilities");
    if (!potential.can_generate_single_step_events || !potential.can_generate_method_entry_events ||
        !potential.can_generate_method_exit_events || !potential.can_get_bytecodes) {
        fprintf(stderr, "bytecount_oracle: this JVM lacks a JVMTI capability the oracle needs "
                        "(single_step=%d method_entry=%d method_exit=%d get_bytecodes=%d)\n",
                potential.can_generate_single_step_events, potential.can_generate_method_entry_events,
                potential.can_generate_method_exit_events, potential.can_get_bytecodes);
        return JNI_ERR;
    }
    if (g_use_breakpoints && !potential.can_generate_breakpoint_events) {
        fprintf(stderr, "bytecount_oracle: events=breakpoint, but this JVM cannot post Breakpoint events\n");
        return JNI_ERR;
    }
    wanted.can_generate_single_step_events = 1;
    wanted.can_generate_method_entry_events = 1;
    wanted.can_generate_method_exit_events = 1;
    /* Not used for breakpoints: it switches off HotSpot's pair rewriting (see the header comment). */
    wanted.can_generate_breakpoint_events = potential.can_generate_breakpoint_events;
    wanted.can_get_bytecodes = 1; /* for the return check and for predicting suppressed repeats */
    check((*g_jvmti)->AddCapabilities(g_jvmti, &wanted), "AddCapabilities");

    check((*g_jvmti)->CreateRawMonitor(g_jvmti, "bytecount_oracle", &g_lock), "CreateRawMonitor");
    atomic_store(&g_table, table_new(1024));

    jvmtiEventCallbacks callbacks;
    memset(&callbacks, 0, sizeof callbacks);
    callbacks.VMInit = on_vm_init;
    callbacks.VMDeath = on_vm_death;
    callbacks.ClassPrepare = on_class_prepare;
    callbacks.ThreadEnd = on_thread_end;
    callbacks.MethodEntry = on_method_entry;
    callbacks.MethodExit = on_method_exit;
    callbacks.SingleStep = on_single_step;
    callbacks.Breakpoint = on_breakpoint;
    check((*g_jvmti)->SetEventCallbacks(g_jvmti, &callbacks, (jint)sizeof callbacks), "SetEventCallbacks");
    enable(JVMTI_EVENT_VM_INIT, "VMInit");
    enable(JVMTI_EVENT_VM_DEATH, "VMDeath");
    enable(JVMTI_EVENT_CLASS_PREPARE, "ClassPrepare");
    enable(JVMTI_EVENT_THREAD_END, "ThreadEnd");
    return JNI_OK;
}
