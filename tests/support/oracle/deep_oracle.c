/*
 * deep_oracle: an independent oracle for *deep* executed-bytecode counts.
 *
 * A JVMTI agent, sharing no code with pytest_bytecount (tests/support/oracle_deep.py drives it):
 *
 *   java -Xshare:off -agentpath:/path/libdeep_oracle.so=out=FILE,targets=@TARGETS[,verify=N][,paths=PATHS] ...
 *
 * TARGETS holds one target method a line: `internal/class/Name name descriptor`.
 * verify: 0 never, 1 (default) when a window opens or closes, 2 at every MethodEntry and MethodExit
 * inside a window, compare the agent's shadow stack with GetStackTrace (statistic stack_mismatch).
 * repair=0 switches the repair of suppressed repeat steps off (only to show that the checks catch it).
 *
 * What it measures, per thread:
 *  - A *window* opens at MethodEntry of a target method when the thread has none open (depth 1); a
 *    MethodEntry of any target while open adds 1 to the depth, a MethodExit of a target takes 1 away,
 *    and at depth 0 the window closes. It belongs to the target activation that opened it. Closed by a
 *    normal return, its counts go to that target's `normal` record, closed by an exception to its
 *    `abrupt` record: windows += 1, total += steps, copied += copied, methods[m] += steps in m.
 *  - Steps: every SingleStep posted on the thread while its window is open, attributed to the method
 *    of the current frame, except
 *    (a) none while ANY frame of the thread's stack is excluded: a <clinit>; a `loadClass` with
 *        descriptor (Ljava/lang/String;)Ljava/lang/Class; or (Ljava/lang/String;Z)Ljava/lang/Class;;
 *        a method of java/lang/invoke/MethodHandleNatives named link* or findMethodHandleType;
 *        sun/instrument/InstrumentationImpl.transform (any descriptor); a method the JVM may run as an
 *        intrinsic: java/lang/Math's sin, cos, tan, abs, sqrt, log, log10, pow, exp and fma,
 *        java/lang/ref/Reference.get, java/lang/ref/SoftReference.get (its work depends on the garbage
 *        collector's clock), java/util/zip/CRC32C's updateBytes and updateDirectByteBuffer,
 *        java/lang/Float's float16ToFloat and floatToFloat16 (any descriptor); the clean-up of what the
 *        garbage collector cleared: java/lang/ref/ReferenceQueue's poll, poll0, reallyPoll, remove, remove0,
 *        every method of java/util/WeakHashMap but its constructors, every method of its nested classes
 *        (java/util/WeakHashMap$...), every method of java/lang/ThreadLocal$ThreadLocalMap but its
 *        constructors (its probes follow the thread's history), and the JDK caches' methods listed in
 *        is_excluded_frame (any descriptor);
 *    (b) not a step whose own frame's class is hidden (Class.isHidden(), asked at ClassPrepare, else
 *        when the method is first seen), one of the four java/lang/invoke/...$Holder classes, or under
 *        org/jpype/ or pytest_bytecount/ (their callees are counted).
 *  - copied: while a window is open and no excluded frame is on the stack, each call of the native
 *    java.lang.System.arraycopy adds its length argument (as passed, when the native is entered, so a
 *    call that then throws counts as well), and
 *    each call of the native java.lang.Object.clone on an array adds the array's length. The agent
 *    replaces both natives' addresses in the NativeMethodBind event (enabled in Agent_OnLoad, with
 *    can_generate_early_vmstart so that names can be read from the early start phase on) by wrappers
 *    that record and then call the original function. Statistics hook_arraycopy and hook_clone say how
 *    each was intercepted: 1 by name in NativeMethodBind; 2 in a primordial-phase NativeMethodBind, where
 *    names cannot be read, by its address being libjvm's JVM_ArrayCopy / JVM_Clone (dlsym), the
 *    jmethodID checked at VMInit (hook_mismatch); 3 re-registered at VMInit with JNI RegisterNatives
 *    (HotSpot then logs a "Re-registering of platform native method" warning); 0 not intercepted.
 *    On HotSpot 17, Zero 17 and 25, arraycopy is 1 and clone is 2.
 *
 *  - Paths (only with paths=PATHS): the same steps, entries and copies counted per *call path*, for
 *    normal and abrupt windows together. A path is the methods of the shadow stack's frames from the
 *    window's opener down to a frame, leaving out the frames of rule (b)'s classes (natives are not on
 *    the stack): a frame of such a class has its caller's path. Recursion is not folded: a method
 *    called again along a path makes a longer path. Per path: steps (as above, by the current frame's
 *    path), entries (each MethodEntry of a method with a path of its own while a window is open and no
 *    excluded frame is on the stack, the opener's own included: nested targets' too) and copied (by
 *    the path of the Java frame that called the native). Statistics: path_lost (anomaly: a counted
 *    event in a frame without a path), path_mismatch (anomaly: a target whose paths' steps or copied
 *    do not sum to its two records' total or copied), paths (how many).
 *
 * The stack: MethodEntry and MethodExit for every method keep a shadow stack of the Java frames of each
 * thread, with the number of excluded frames on it and the window's depth. Native methods are left out
 * (Zero posts no MethodEntry/MethodExit for them, HotSpot does; none of them is an excluded frame). A
 * thread first seen with frames already on its stack (started before VMInit) is initialised from
 * GetStackTrace.
 *
 * HotSpot details (learned from tests/support/oracle/bytecount_oracle.c):
 *  - can_generate_breakpoint_events is requested (never used): it switches off the rewriting of
 *    bytecode pairs, which would post one SingleStep for two instructions.
 *  - A SingleStep at the same (method, bci) as the last one posted on the thread is suppressed
 *    ("repeat single step"). That hides a callee's bci 0 when its caller called the same method from
 *    bci 0, and a caller's resumption after `invoke*` when the callee (same method) posted its last
 *    step at that very bci. The agent predicts both and, when the frame's next event shows it went on
 *    with nothing posted meanwhile, counts the hidden instruction itself (statistic repeat_repaired).
 *  - No steps are posted while the interpreter resolves a constant-pool entry. The Java code run then
 *    (a <clinit>, loadClass, MethodHandleNatives.link*) is excluded by rule (a), so it should not
 *    matter. To be sure no step goes missing anywhere else, every frame not under an excluded frame is
 *    checked: its first step must be at bci 0, each step must be a control-flow successor of the
 *    frame's previous one (fall-through, branch or switch target, the handler an ExceptionCatch event
 *    named), a normal exit must follow a *return, a frame with code must have steps. Breaches inside
 *    windows are anomalies (w_*), outside windows they are only reported (o_*).
 *
 * Threads are identified by the OS thread (__thread state): fine for platform threads, not meant for
 * virtual threads.
 *
 * Output, written at VMDeath:
 *   # deep-oracle 1
 *   S <statistic> <n>                          (every statistic)
 *   T <class> <name> <descriptor>              (each target, in the order given)
 *   R normal|abrupt <windows> <total> <copied> (both records of that target)
 *   C <class> <name> <descriptor> <steps>      (per method with steps, after its record)
 * and, with paths=PATHS, in PATHS:
 *   # deep-oracle-paths 1
 *   M <index> <class> <name> <descriptor>      (each method on some path)
 *   T <class> <name> <descriptor>              (each target, in the order given)
 *   P <steps> <entries> <copied> <index>...    (each path of that target: its methods' M indexes, from the
 *                                               target's own down; a path's prefixes come before it)
 */

#define _GNU_SOURCE /* RTLD_DEFAULT */
#include <dlfcn.h>
#include <jvmti.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEEP_FORMAT 1

typedef struct MethodInfo {
    jmethodID id;
    int index;
    char *class_name; /* internal form */
    char *name;
    char *descriptor;
    int is_native;
    jint code_length; /* 0 without code */
    unsigned char *code;
    int excl_frame; /* rule (a) */
    int skip_steps; /* rule (b) */
    int hidden;
    int target; /* index into g_targets, or -1 */
} MethodInfo;

/* A call path as a node of a tree: its parent's node (or -1 - target for a target's own node) and the
 * MethodInfo index of its last frame, with what was counted along it. */
typedef struct PNode {
    int parent, method;
    uint64_t steps, entries, copied;
} PNode;

typedef struct PSlot {
    int parent, method, node;
    unsigned gen; /* the slot is in use when gen is the table's */
} PSlot;

typedef struct PathTable {
    PNode *nodes; /* parents before children */
    int n, cap;
    PSlot *slots;
    size_t mask;
    unsigned gen;
} PathTable;

typedef struct SFrame {
    MethodInfo *m;
    jlocation last_bci;    /* -1: no step yet; -2: unknown (frame found by GetStackTrace) */
    jlocation pending_bci; /* a step HotSpot may have suppressed as a repeat, or -1 */
    uint64_t pending_posted;
    jlocation catch_bci; /* where an ExceptionCatch said this frame goes on, or -1 */
    uint64_t steps;
    char excl;  /* counted in excl_depth */
    char zone;  /* 0: under an excluded frame, 1: outside a window, 2: inside a window */
    char opener; /* this frame opened the window */
    int path;    /* paths=FILE: the frame's node in its thread's PathTable, or -1 */
} SFrame;

typedef struct TState {
    SFrame *frames;
    int depth, cap;
    int excl_depth;
    int win_depth;
    MethodInfo *win_target;
    uint64_t win_total, win_copied;
    uint64_t *win_counts; /* [counts_cap] by MethodInfo index */
    PathTable win_paths;  /* paths=FILE: the open window's paths, its opener's node first (parent -1) */
    int *touched;
    int ntouched, counts_cap;
    uint64_t posted; /* SingleSteps posted on this thread */
    jmethodID last_method;
    jlocation last_bci;
    struct TState *next_all;
    int alive;
} TState;

typedef struct Record {
    uint64_t windows, total, copied;
    uint64_t *methods; /* [cap] by MethodInfo index */
    int cap;
} Record;

typedef struct Target {
    char *class_name, *name, *descriptor;
    Record normal, abrupt;
} Target;

typedef struct Slot {
    _Atomic(jmethodID) key;
    MethodInfo *value;
} Slot;

typedef struct Table {
    size_t mask, used;
    Slot slots[];
} Table;

enum {
    /* anomalies: must stay 0 */
    STAT_W_FLOW_BREAKS, STAT_W_ENTRY_NOT_AT_0, STAT_W_EMPTY_FRAMES, STAT_W_LAST_NOT_RETURN,
    STAT_W_BAD_CATCH, STAT_ORPHAN_STEPS, STAT_UNMATCHED_EXITS, STAT_STACK_MISMATCH, STAT_BAD_LOCATIONS,
    STAT_OPEN_AT_END, STAT_INIT_WITH_TARGET, STAT_HIDDEN_DISAGREE, STAT_BIND_UNKNOWN, STAT_METHOD_INFO_FAILED,
    STAT_HOOK_MISMATCH, STAT_PATH_LOST, STAT_PATH_MISMATCH,
    /* information */
    STAT_REPEAT_REPAIRED, STAT_O_FLOW_BREAKS, STAT_O_ENTRY_NOT_AT_0, STAT_O_EMPTY_FRAMES, STAT_O_LAST_NOT_RETURN,
    STAT_STEPS_POSTED, STAT_STEPS_COUNTED, STAT_STEPS_EXCLUDED_FRAME, STAT_STEPS_SKIPPED_CLASS,
    STAT_WINDOWS_OPENED, STAT_THREADS_FROM_STACK, STAT_METHODS_SEEN, STAT_HIDDEN_METHODS,
    STAT_HIDDEN_LAZY, STAT_HIDDEN_API, STAT_HOOK_ARRAYCOPY, STAT_HOOK_CLONE, STAT_HOOK_LATE,
    STAT_ARRAYCOPY_CALLS, STAT_ARRAYCOPY_COUNTED, STAT_CLONE_CALLS, STAT_CLONE_COUNTED,
    STAT_STACK_CHECKS, STAT_AGENT_REENTRY, STAT_NATIVE_EVENTS, STAT_PATHS,
    STAT_COUNT
};
static const char *const STAT_NAMES[STAT_COUNT] = {
    "w_flow_breaks", "w_entry_not_at_0", "w_empty_frames", "w_last_not_return",
    "w_bad_catch", "orphan_steps", "unmatched_exits", "stack_mismatch", "bad_locations",
    "open_at_end", "init_with_target", "hidden_disagree", "bind_unknown", "method_info_failed", "hook_mismatch",
    "path_lost", "path_mismatch",
    "repeat_repaired", "o_flow_breaks", "o_entry_not_at_0", "o_empty_frames", "o_last_not_return",
    "steps_posted", "steps_counted", "steps_excluded_frame", "steps_skipped_class",
    "windows_opened", "threads_from_stack", "methods_seen", "hidden_methods",
    "hidden_lazy", "hidden_api", "hook_arraycopy", "hook_clone", "hook_late",
    "arraycopy_calls", "arraycopy_counted", "clone_calls", "clone_counted",
    "stack_checks", "agent_reentry", "native_entries", "paths",
};
static _Atomic uint64_t g_stats[STAT_COUNT];

static jvmtiEnv *g_jvmti;
static jrawMonitorID g_lock;
static _Atomic(Table *) g_table;
static MethodInfo **g_methods; /* by index, guarded by g_lock */
static int g_nmethods, g_methods_cap;
static Target *g_targets;
static int g_ntargets;
static char *g_out_path;
static char *g_paths_path; /* paths=FILE, or NULL: no per-path counts */
static PathTable g_paths;  /* every target's paths, guarded by g_lock */
static int g_verify = 1;
static int g_repair = 1; /* repair=0: leave suppressed repeat steps uncounted (to test the detectors) */
static int g_dead;
static TState *g_threads; /* every thread state ever made, guarded by g_lock */
static jmethodID g_is_hidden; /* java.lang.Class.isHidden()Z, or NULL before JDK 15 */
static _Atomic int g_live;

#define THREAD_LOCAL __thread __attribute__((tls_model("initial-exec")))
static THREAD_LOCAL TState *tl_state;
static THREAD_LOCAL int tl_in_agent; /* the agent itself is calling Java (Class.isHidden) */

/* ------------------------------------------------------------------ helpers */

static void fatal(const char *what) {
    fprintf(stderr, "deep_oracle: %s\n", what);
    exit(70);
}

static void check(jvmtiError err, const char *what) {
    if (err != JVMTI_ERROR_NONE) {
        char *name = NULL;
        (*g_jvmti)->GetErrorName(g_jvmti, err, &name);
        fprintf(stderr, "deep_oracle: %s failed: %s (%d)\n", what, name ? name : "?", (int)err);
        exit(70);
    }
}

static void *xcalloc(size_t n, size_t size) {
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) fatal("out of memory");
    return p;
}

static void *xrealloc(void *p, size_t size) {
    p = realloc(p, size ? size : 1);
    if (!p) fatal("out of memory");
    return p;
}

static char *xstrdup(const char *s) {
    char *p = strdup(s);
    if (!p) fatal("out of memory");
    return p;
}

static void stat_add(int which, uint64_t n) { atomic_fetch_add_explicit(&g_stats[which], n, memory_order_relaxed); }
static void stat_set(int which, uint64_t n) { atomic_store(&g_stats[which], n); }

static void lock(void) { check((*g_jvmti)->RawMonitorEnter(g_jvmti, g_lock), "RawMonitorEnter"); }
static void unlock(void) { check((*g_jvmti)->RawMonitorExit(g_jvmti, g_lock), "RawMonitorExit"); }

static void enable(jvmtiEvent event, const char *name) {
    char what[80];
    snprintf(what, sizeof what, "enabling %s events", name);
    check((*g_jvmti)->SetEventNotificationMode(g_jvmti, JVMTI_ENABLE, event, NULL), what);
}

static int starts_with(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

/* ------------------------------------------------------------------ jmethodID -> MethodInfo */

static size_t hash_id(jmethodID id) {
    uint64_t x = (uint64_t)(uintptr_t)id;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return (size_t)x;
}

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

/* ------------------------------------------------------------------ classes: hidden or not */

enum { TAG_NONE = 0, TAG_PLAIN = 1, TAG_HIDDEN = 2 };

/* Ask Class.isHidden() (the agent's own call, so its events are ignored); -1 when it cannot. */
static int ask_is_hidden(JNIEnv *jni, jclass klass) {
    if (g_is_hidden == NULL || jni == NULL) return -1;
    tl_in_agent++;
    jboolean hidden = (*jni)->CallBooleanMethod(jni, klass, g_is_hidden);
    tl_in_agent--;
    if ((*jni)->ExceptionCheck(jni)) {
        (*jni)->ExceptionClear(jni);
        return -1;
    }
    return hidden ? 1 : 0;
}

static void tag_class(JNIEnv *jni, jclass klass) {
    jlong tag = 0;
    if ((*g_jvmti)->GetTag(g_jvmti, klass, &tag) != JVMTI_ERROR_NONE || tag != TAG_NONE) return;
    int hidden = ask_is_hidden(jni, klass);
    if (hidden >= 0) (*g_jvmti)->SetTag(g_jvmti, klass, hidden ? TAG_HIDDEN : TAG_PLAIN);
}

static int is_holder_class(const char *c) {
    return strcmp(c, "java/lang/invoke/LambdaForm$Holder") == 0 ||
           strcmp(c, "java/lang/invoke/DirectMethodHandle$Holder") == 0 ||
           strcmp(c, "java/lang/invoke/Invokers$Holder") == 0 ||
           strcmp(c, "java/lang/invoke/DelegatingMethodHandle$Holder") == 0;
}

static int is_excluded_frame(const char *c, const char *name, const char *desc) {
    if (strcmp(name, "<clinit>") == 0) return 1;
    if (strcmp(name, "loadClass") == 0 && (strcmp(desc, "(Ljava/lang/String;)Ljava/lang/Class;") == 0 ||
                                          strcmp(desc, "(Ljava/lang/String;Z)Ljava/lang/Class;") == 0))
        return 1;
    if (strcmp(c, "java/lang/invoke/MethodHandleNatives") == 0 &&
        (starts_with(name, "link") || strcmp(name, "findMethodHandleType") == 0))
        return 1;
    if (strcmp(c, "sun/instrument/InstrumentationImpl") == 0 && strcmp(name, "transform") == 0) return 1;
    static const char *const math[] = {"sin", "cos", "tan", "abs", "sqrt", "log", "log10", "pow", "exp", "fma"};
    if (strcmp(c, "java/lang/Math") == 0)
        for (size_t i = 0; i < sizeof math / sizeof math[0]; i++)
            if (strcmp(name, math[i]) == 0) return 1;
    if ((strcmp(c, "java/lang/ref/Reference") == 0 || strcmp(c, "java/lang/ref/SoftReference") == 0) &&
        strcmp(name, "get") == 0)
        return 1;
    if (strcmp(c, "java/util/zip/CRC32C") == 0 &&
        (strcmp(name, "updateBytes") == 0 || strcmp(name, "updateDirectByteBuffer") == 0))
        return 1;
    if (strcmp(c, "java/lang/Float") == 0 &&
        (strcmp(name, "float16ToFloat") == 0 || strcmp(name, "floatToFloat16") == 0))
        return 1;
    /* the clean-up of what the garbage collector cleared (class, then the method names, any descriptor) */
    static const char *const collector[][6] = {
        {"java/lang/ref/ReferenceQueue", "poll", "poll0", "reallyPoll", "remove", "remove0"},
        {"java/lang/invoke/MethodType$ConcurrentWeakInternSet", "expungeStaleElements"},
        {"jdk/internal/util/ReferencedKeyMap", "removeStaleReferences"},
        {"java/lang/WeakPairMap", "expungeStaleAssociations"},
        {"java/io/ClassCache", "processQueue"},
        {"java/lang/Thread", "processQueue"},
        {"jdk/internal/vm/ThreadContainers", "expungeStaleEntries"},
        {"sun/util/locale/LocaleObjectCache", "cleanStaleEntries"},
        {"sun/util/locale/provider/LocaleResources", "removeEmptyReferences"},
        {"sun/util/resources/Bundles", "cleanupCache"},
        {"sun/security/util/MemoryCache", "emptyQueue"},
        {"javax/crypto/JceSecurity", "expungeStaleWrappers"},
        {"sun/nio/ch/FileLockTable", "removeStaleEntries"},
        {"java/util/zip/ZipFile$CleanableResource", "getInflater", "releaseInflater"},
    };
    /* a weak map: all it does follows what the collector left of it (its own constructors aside) */
    if (strcmp(c, "java/util/WeakHashMap") == 0 && strcmp(name, "<init>") != 0) return 1;
    if (starts_with(c, "java/util/WeakHashMap$")) return 1;
    /* a thread's ThreadLocal table: its probes follow what the thread's earlier work left in it */
    if (strcmp(c, "java/lang/ThreadLocal$ThreadLocalMap") == 0 && strcmp(name, "<init>") != 0) return 1;
    for (size_t i = 0; i < sizeof collector / sizeof collector[0]; i++)
        if (strcmp(c, collector[i][0]) == 0)
            for (size_t j = 1; j < 6 && collector[i][j] != NULL; j++)
                if (strcmp(name, collector[i][j]) == 0) return 1;
    return 0;
}

/* The MethodInfo of a method, made the first time it is seen. jni may be NULL (no isHidden call). */
static MethodInfo *method_info(JNIEnv *jni, jmethodID id) {
    MethodInfo *m = lookup(id);
    if (m != NULL) return m;
    char *name = NULL, *desc = NULL, *sig = NULL;
    jclass klass = NULL;
    if ((*g_jvmti)->GetMethodName(g_jvmti, id, &name, &desc, NULL) != JVMTI_ERROR_NONE ||
        (*g_jvmti)->GetMethodDeclaringClass(g_jvmti, id, &klass) != JVMTI_ERROR_NONE ||
        (*g_jvmti)->GetClassSignature(g_jvmti, klass, &sig, NULL) != JVMTI_ERROR_NONE) {
        stat_add(STAT_METHOD_INFO_FAILED, 1);
        fatal("cannot name a method");
    }
    size_t len = strlen(sig);
    m = xcalloc(1, sizeof(MethodInfo));
    m->id = id;
    if (len >= 2 && sig[0] == 'L' && sig[len - 1] == ';') {
        m->class_name = xcalloc(len - 1, 1);
        memcpy(m->class_name, sig + 1, len - 2);
    } else {
        m->class_name = xstrdup(sig);
    }
    m->name = xstrdup(name);
    m->descriptor = xstrdup(desc);
    (*g_jvmti)->Deallocate(g_jvmti, (unsigned char *)name);
    (*g_jvmti)->Deallocate(g_jvmti, (unsigned char *)desc);
    (*g_jvmti)->Deallocate(g_jvmti, (unsigned char *)sig);
    jint modifiers = 0;
    check((*g_jvmti)->GetMethodModifiers(g_jvmti, id, &modifiers), "GetMethodModifiers");
    m->is_native = (modifiers & 0x0100) != 0;
    if (!(modifiers & (0x0100 | 0x0400))) {
        jint count = 0;
        unsigned char *code = NULL;
        check((*g_jvmti)->GetBytecodes(g_jvmti, id, &count, &code), "GetBytecodes");
        m->code_length = count;
        m->code = xcalloc((size_t)count, 1);
        memcpy(m->code, code, (size_t)count);
        (*g_jvmti)->Deallocate(g_jvmti, code);
    }
    /* hidden: the tag set at ClassPrepare, else ask now; and cross-check with the name's form */
    jlong tag = 0;
    (*g_jvmti)->GetTag(g_jvmti, klass, &tag);
    if (tag == TAG_NONE) {
        int hidden = ask_is_hidden(jni, klass);
        if (hidden >= 0) {
            tag = hidden ? TAG_HIDDEN : TAG_PLAIN;
            (*g_jvmti)->SetTag(g_jvmti, klass, tag);
            stat_add(STAT_HIDDEN_LAZY, 1);
        }
    }
    int by_name = strchr(m->class_name, '.') != NULL;
    if (tag == TAG_NONE) m->hidden = by_name; /* JDK < 15, or no JNI here */
    else m->hidden = tag == TAG_HIDDEN;
    if (m->hidden != by_name) stat_add(STAT_HIDDEN_DISAGREE, 1);
    if (m->hidden) stat_add(STAT_HIDDEN_METHODS, 1);
    if (jni != NULL) (*jni)->DeleteLocalRef(jni, klass);
    m->excl_frame = is_excluded_frame(m->class_name, m->name, m->descriptor);
    m->skip_steps = m->hidden || is_holder_class(m->class_name) || starts_with(m->class_name, "org/jpype/") ||
                    starts_with(m->class_name, "pytest_bytecount/");
    m->target = -1;
    for (int i = 0; i < g_ntargets; i++) {
        if (strcmp(g_targets[i].class_name, m->class_name) == 0 && strcmp(g_targets[i].name, m->name) == 0 &&
            strcmp(g_targets[i].descriptor, m->descriptor) == 0) {
            m->target = i;
            break;
        }
    }
    lock();
    MethodInfo *again = lookup(id);
    if (again != NULL) { /* another thread won */
        unlock();
        free(m->class_name); free(m->name); free(m->descriptor); free(m->code); free(m);
        return again;
    }
    if (g_nmethods == g_methods_cap) {
        g_methods_cap = g_methods_cap ? g_methods_cap * 2 : 4096;
        g_methods = xrealloc(g_methods, (size_t)g_methods_cap * sizeof(MethodInfo *));
    }
    m->index = g_nmethods;
    g_methods[g_nmethods++] = m;
    table_insert(id, m);
    unlock();
    stat_add(STAT_METHODS_SEEN, 1);
    return m;
}

/* ------------------------------------------------------------------ instructions (JVMS 6.5) */

static int32_t read_s4(const unsigned char *code, jint at) {
    return (int32_t)(((uint32_t)code[at] << 24) | ((uint32_t)code[at + 1] << 16) | ((uint32_t)code[at + 2] << 8) |
                     (uint32_t)code[at + 3]);
}

static int16_t read_s2(const unsigned char *code, jint at) { return (int16_t)((code[at] << 8) | code[at + 1]); }

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
    if (opcode == 0xaa || opcode == 0xab) {
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
    } else if (opcode == 0xc4) {
        if (bci + 1 >= length) return -1;
        n = code[bci + 1] == 0x84 ? 6 : 4;
    }
    return (n > 0 && bci + n <= length) ? n : -1;
}

/* May the instruction at `from` be followed, in the same frame and without an exception, by `to`? */
static int is_successor(const MethodInfo *m, jint from, jint to) {
    const unsigned char *code = m->code;
    jint len = instruction_length(code, m->code_length, from);
    if (len < 0) return 0;
    unsigned char op = code[from];
    if (op >= 0x99 && op <= 0xa6) return to == from + len || to == from + read_s2(code, from + 1); /* if* */
    if (op == 0xc6 || op == 0xc7) return to == from + len || to == from + read_s2(code, from + 1);
    if (op == 0xa7 || op == 0xa8) return to == from + read_s2(code, from + 1); /* goto, jsr */
    if (op == 0xc8 || op == 0xc9) return to == from + read_s4(code, from + 1); /* goto_w, jsr_w */
    if (op == 0xa9 || (op == 0xc4 && code[from + 1] == 0xa9)) return 1; /* ret: wherever jsr said */
    if (op == 0xaa || op == 0xab) {
        jint at = from + 1 + ((4 - (from + 1) % 4) % 4);
        if (to == from + read_s4(code, at)) return 1;
        if (op == 0xaa) {
            int64_t cases = (int64_t)read_s4(code, at + 8) - read_s4(code, at + 4) + 1;
            for (int64_t i = 0; i < cases; i++)
                if (to == from + read_s4(code, at + 12 + 4 * (jint)i)) return 1;
        } else {
            int64_t pairs = read_s4(code, at + 4);
            for (int64_t i = 0; i < pairs; i++)
                if (to == from + read_s4(code, at + 12 + 8 * (jint)i)) return 1;
        }
        return 0;
    }
    if ((op >= 0xac && op <= 0xb1) || op == 0xbf) return 0; /* *return, athrow */
    return to == from + len;
}

static int is_return(unsigned char op) { return op >= 0xac && op <= 0xb1; }

/* Where a frame goes on after the invoke it last stepped on returns normally. */
static jlocation resumption_bci(const SFrame *f) {
    if (f->last_bci < 0 || f->m->code == NULL) return -1;
    unsigned char op = f->m->code[f->last_bci];
    if (op >= 0xb6 && op <= 0xb8) return f->last_bci + 3;
    if (op == 0xb9 || op == 0xba) return f->last_bci + 5;
    return -1;
}

/* ------------------------------------------------------------------ call paths (paths=FILE) */

static size_t hash_path(int parent, int method) {
    uint64_t x = ((uint64_t)(uint32_t)parent << 32) | (uint32_t)method;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return (size_t)x;
}

static PSlot *path_slot(PathTable *t, int parent, int method) {
    size_t i = hash_path(parent, method) & t->mask;
    while (t->slots[i].gen == t->gen && (t->slots[i].parent != parent || t->slots[i].method != method))
        i = (i + 1) & t->mask;
    return &t->slots[i];
}

/* The node of the path `parent` extended by `method` (a target's own node: parent -1 - target, or -1 in a
 * thread's table), made the first time. */
static int path_child(PathTable *t, int parent, int method) {
    if (t->slots == NULL || (size_t)(t->n + 1) * 2 > t->mask + 1) {
        size_t capacity = t->slots == NULL ? 1024 : (t->mask + 1) * 2;
        free(t->slots);
        t->slots = xcalloc(capacity, sizeof(PSlot));
        t->mask = capacity - 1;
        t->gen = 1;
        for (int i = 0; i < t->n; i++) {
            PSlot *slot = path_slot(t, t->nodes[i].parent, t->nodes[i].method);
            *slot = (PSlot){t->nodes[i].parent, t->nodes[i].method, i, t->gen};
        }
    }
    PSlot *slot = path_slot(t, parent, method);
    if (slot->gen == t->gen) return slot->node;
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 256;
        t->nodes = xrealloc(t->nodes, (size_t)t->cap * sizeof(PNode));
    }
    int node = t->n++;
    t->nodes[node] = (PNode){parent, method, 0, 0, 0};
    *slot = (PSlot){parent, method, node, t->gen};
    return node;
}

/* Empty the table, keeping its memory (the slots of an older generation count as free). */
static void path_clear(PathTable *t) {
    t->n = 0;
    if (++t->gen == 0) {
        if (t->slots != NULL) memset(t->slots, 0, (t->mask + 1) * sizeof(PSlot));
        t->gen = 1;
    }
}

/* The node of the window's frames for f, just pushed on ts while a window is open: the opener's own node,
 * its caller's node for a method the paths leave out (a skipped class; natives are not on the stack), a
 * child of its caller's node for any other; -1 under an excluded frame. Counts the entry. */
static int frame_path(TState *ts, SFrame *f) {
    if (ts->excl_depth > 0) return -1;
    MethodInfo *m = f->m;
    int parent = -1;
    if (!f->opener) {
        parent = ts->depth >= 2 ? ts->frames[ts->depth - 2].path : -1;
        if (parent < 0) {
            stat_add(STAT_PATH_LOST, 1);
            return -1;
        }
        if (m->skip_steps) return parent;
    }
    int node = path_child(&ts->win_paths, parent, m->index);
    if (!m->skip_steps) ts->win_paths.nodes[node].entries++;
    return node;
}

/* Add the closed window's paths to its target's (caller holds g_lock). */
static void commit_paths(TState *ts, int target) {
    PathTable *w = &ts->win_paths;
    int *global = xcalloc((size_t)w->n, sizeof(int));
    for (int i = 0; i < w->n; i++) {
        const PNode *p = &w->nodes[i];
        int node = path_child(&g_paths, p->parent < 0 ? -1 - target : global[p->parent], p->method);
        global[i] = node;
        g_paths.nodes[node].steps += p->steps;
        g_paths.nodes[node].entries += p->entries;
        g_paths.nodes[node].copied += p->copied;
    }
    free(global);
}

/* Elements copied by a native the top Java frame called. */
static void path_copied(TState *ts, uint64_t n) {
    if (g_paths_path == NULL) return;
    int path = ts->depth > 0 ? ts->frames[ts->depth - 1].path : -1;
    if (path < 0) stat_add(STAT_PATH_LOST, 1);
    else ts->win_paths.nodes[path].copied += n;
}

/* ------------------------------------------------------------------ thread states */

static void push_frame(TState *ts, MethodInfo *m, jlocation last_bci) {
    if (ts->depth == ts->cap) {
        ts->cap = ts->cap ? ts->cap * 2 : 64;
        ts->frames = xrealloc(ts->frames, (size_t)ts->cap * sizeof(SFrame));
    }
    SFrame *f = &ts->frames[ts->depth++];
    memset(f, 0, sizeof *f);
    f->m = m;
    f->last_bci = last_bci;
    f->pending_bci = -1;
    f->catch_bci = -1;
    f->path = -1;
    f->excl = (char)m->excl_frame;
    if (f->excl) ts->excl_depth++;
    f->zone = ts->excl_depth > 0 ? 0 : (ts->win_depth > 0 ? 2 : 1);
}

/* The calling thread's state; made on first use, from GetStackTrace when frames are already there.
 * skip_top: leave out the top frame (MethodEntry: the method entered is pushed by the caller). */
static TState *thread_state(JNIEnv *jni, jthread thread, int skip_top) {
    TState *ts = tl_state;
    if (ts != NULL) return ts;
    ts = xcalloc(1, sizeof(TState));
    ts->alive = 1;
    jint count = 0;
    check((*g_jvmti)->GetFrameCount(g_jvmti, thread, &count), "GetFrameCount");
    if (count > 0) {
        jvmtiFrameInfo *frames = xcalloc((size_t)count, sizeof(jvmtiFrameInfo));
        jint got = 0;
        check((*g_jvmti)->GetStackTrace(g_jvmti, thread, 0, count, frames, &got), "GetStackTrace");
        for (jint i = got - 1; i >= (skip_top ? 1 : 0); i--) {
            MethodInfo *m = method_info(jni, frames[i].method);
            if (m->is_native) continue;
            if (m->target >= 0) stat_add(STAT_INIT_WITH_TARGET, 1);
            push_frame(ts, m, -2);
        }
        free(frames);
        if (ts->depth > 0) stat_add(STAT_THREADS_FROM_STACK, 1);
    }
    lock();
    ts->next_all = g_threads;
    g_threads = ts;
    unlock();
    tl_state = ts;
    return ts;
}

static void verify_stack(JNIEnv *jni, TState *ts, jthread thread) {
    stat_add(STAT_STACK_CHECKS, 1);
    jint count = 0;
    if ((*g_jvmti)->GetFrameCount(g_jvmti, thread, &count) != JVMTI_ERROR_NONE) {
        stat_add(STAT_STACK_MISMATCH, 1);
        return;
    }
    jvmtiFrameInfo *frames = xcalloc((size_t)count + 1, sizeof(jvmtiFrameInfo));
    jint got = 0;
    if ((*g_jvmti)->GetStackTrace(g_jvmti, thread, 0, count, frames, &got) != JVMTI_ERROR_NONE || got != count) {
        stat_add(STAT_STACK_MISMATCH, 1);
    } else {
        int k = ts->depth - 1; /* the shadow stack holds the Java frames only */
        for (jint i = 0; i < got; i++) {
            if (method_info(jni, frames[i].method)->is_native) continue;
            if (k < 0 || frames[i].method != ts->frames[k].m->id) {
                k = -2;
                break;
            }
            k--;
        }
        if (k != -1) stat_add(STAT_STACK_MISMATCH, 1);
    }
    free(frames);
}

static void window_add_step(TState *ts, MethodInfo *m) {
    if (m->index >= ts->counts_cap) {
        int cap = ts->counts_cap ? ts->counts_cap : 1024;
        while (cap <= m->index) cap *= 2;
        ts->win_counts = xrealloc(ts->win_counts, (size_t)cap * sizeof(uint64_t));
        memset(ts->win_counts + ts->counts_cap, 0, (size_t)(cap - ts->counts_cap) * sizeof(uint64_t));
        ts->touched = xrealloc(ts->touched, (size_t)cap * sizeof(int));
        ts->counts_cap = cap;
    }
    if (ts->win_counts[m->index]++ == 0) ts->touched[ts->ntouched++] = m->index;
    ts->win_total++;
}

/* One executed instruction of the top frame f at bci (posted, or repaired). */
static void count_step(TState *ts, SFrame *f, jlocation bci) {
    MethodInfo *m = f->m;
    if (f->zone != 0) {
        int w = f->zone == 2;
        if (f->catch_bci >= 0) {
            if (bci != f->catch_bci) stat_add(w ? STAT_W_BAD_CATCH : STAT_O_FLOW_BREAKS, 1);
        } else if (f->last_bci == -1) {
            if (bci != 0) stat_add(w ? STAT_W_ENTRY_NOT_AT_0 : STAT_O_ENTRY_NOT_AT_0, 1);
        } else if (f->last_bci >= 0 && !is_successor(m, (jint)f->last_bci, (jint)bci)) {
            stat_add(w ? STAT_W_FLOW_BREAKS : STAT_O_FLOW_BREAKS, 1);
        }
    }
    f->catch_bci = -1;
    f->last_bci = bci;
    f->steps++;
    if (ts->win_depth == 0) return;
    if (ts->excl_depth > 0) {
        stat_add(STAT_STEPS_EXCLUDED_FRAME, 1);
    } else if (m->skip_steps) {
        stat_add(STAT_STEPS_SKIPPED_CLASS, 1);
    } else {
        stat_add(STAT_STEPS_COUNTED, 1);
        window_add_step(ts, m);
        if (g_paths_path != NULL) {
            if (f->path < 0) stat_add(STAT_PATH_LOST, 1);
            else ts->win_paths.nodes[f->path].steps++;
        }
    }
}

static void resolve_pending(TState *ts, SFrame *f, uint64_t posted_before_event) {
    if (f->pending_bci < 0) return;
    jlocation bci = f->pending_bci;
    f->pending_bci = -1;
    if (posted_before_event == f->pending_posted) {
        stat_add(STAT_REPEAT_REPAIRED, 1);
        count_step(ts, f, bci);
    }
}

static void expect_repeat(TState *ts, SFrame *f, jlocation bci) {
    if (g_repair && ts->posted > 0 && ts->last_method == f->m->id && ts->last_bci == bci) {
        f->pending_bci = bci;
        f->pending_posted = ts->posted;
    }
}

static void commit_window(TState *ts, int normal) {
    MethodInfo *t = ts->win_target;
    lock();
    if (!g_dead) {
        Record *r = normal ? &g_targets[t->target].normal : &g_targets[t->target].abrupt;
        r->windows++;
        r->total += ts->win_total;
        r->copied += ts->win_copied;
        for (int i = 0; i < ts->ntouched; i++) {
            int index = ts->touched[i];
            if (index >= r->cap) {
                int cap = r->cap ? r->cap : 1024;
                while (cap <= index) cap *= 2;
                r->methods = xrealloc(r->methods, (size_t)cap * sizeof(uint64_t));
                memset(r->methods + r->cap, 0, (size_t)(cap - r->cap) * sizeof(uint64_t));
                r->cap = cap;
            }
            r->methods[index] += ts->win_counts[index];
        }
        if (g_paths_path != NULL) commit_paths(ts, t->target);
    }
    unlock();
    path_clear(&ts->win_paths);
    for (int i = 0; i < ts->ntouched; i++) ts->win_counts[ts->touched[i]] = 0;
    ts->ntouched = 0;
    ts->win_total = ts->win_copied = 0;
    ts->win_target = NULL;
}

/* ------------------------------------------------------------------ events */

static void JNICALL on_method_entry(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method) {
    (void)jvmti;
    if (tl_in_agent) {
        stat_add(STAT_AGENT_REENTRY, 1);
        return;
    }
    TState *ts = thread_state(jni, thread, 1);
    MethodInfo *m = method_info(jni, method);
    if (m->is_native) { /* not on the shadow stack: Zero posts no MethodEntry/MethodExit for natives */
        stat_add(STAT_NATIVE_EVENTS, 1);
        return;
    }
    if (ts->depth > 0) resolve_pending(ts, &ts->frames[ts->depth - 1], ts->posted);
    int opens = 0;
    if (m->target >= 0) {
        if (ts->win_depth++ == 0) {
            opens = 1;
            ts->win_target = m;
            stat_add(STAT_WINDOWS_OPENED, 1);
        }
    }
    push_frame(ts, m, -1);
    SFrame *f = &ts->frames[ts->depth - 1];
    f->opener = (char)opens;
    if (g_paths_path != NULL && ts->win_depth > 0) f->path = frame_path(ts, f);
    if (m->code != NULL) expect_repeat(ts, f, 0);
    if (g_verify >= 2 ? ts->win_depth > 0 : (g_verify == 1 && opens)) verify_stack(jni, ts, thread);
}

static void JNICALL on_method_exit(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method,
                                   jboolean was_popped_by_exception, jvalue return_value) {
    (void)jvmti; (void)return_value;
    if (tl_in_agent) {
        stat_add(STAT_AGENT_REENTRY, 1);
        return;
    }
    TState *ts = thread_state(jni, thread, 0);
    if (ts->depth == 0 || ts->frames[ts->depth - 1].m->id != method) {
        if (method_info(jni, method)->is_native) return;
        stat_add(STAT_UNMATCHED_EXITS, 1);
        return;
    }
    SFrame *f = &ts->frames[ts->depth - 1];
    MethodInfo *m = f->m;
    resolve_pending(ts, f, ts->posted);
    if (!was_popped_by_exception && f->zone != 0 && m->code != NULL) {
        int w = f->zone == 2;
        if (f->steps == 0) stat_add(w ? STAT_W_EMPTY_FRAMES : STAT_O_EMPTY_FRAMES, 1);
        else if (f->last_bci >= 0 && !is_return(m->code[f->last_bci]))
            stat_add(w ? STAT_W_LAST_NOT_RETURN : STAT_O_LAST_NOT_RETURN, 1);
    }
    int closes = m->target >= 0 && ts->win_depth == 1;
    if (g_verify >= 2 ? ts->win_depth > 0 : (g_verify == 1 && closes)) verify_stack(jni, ts, thread);
    if (closes && !f->opener) stat_add(STAT_STACK_MISMATCH, 1);
    if (f->excl) ts->excl_depth--;
    ts->depth--;
    if (m->target >= 0 && ts->win_depth > 0) {
        if (--ts->win_depth == 0) commit_window(ts, !was_popped_by_exception);
    }
    if (!was_popped_by_exception && ts->depth > 0) {
        SFrame *caller = &ts->frames[ts->depth - 1];
        jlocation resume = resumption_bci(caller);
        if (resume >= 0) expect_repeat(ts, caller, resume);
    }
}

static void JNICALL on_single_step(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method,
                                   jlocation location) {
    (void)jvmti;
    if (tl_in_agent) {
        stat_add(STAT_AGENT_REENTRY, 1);
        return;
    }
    stat_add(STAT_STEPS_POSTED, 1);
    TState *ts = thread_state(jni, thread, 0);
    uint64_t posted_before = ts->posted;
    ts->posted = posted_before + 1;
    ts->last_method = method;
    ts->last_bci = location;
    if (ts->depth == 0 || ts->frames[ts->depth - 1].m->id != method) {
        stat_add(STAT_ORPHAN_STEPS, 1);
        return;
    }
    SFrame *f = &ts->frames[ts->depth - 1];
    if (location < 0 || location >= f->m->code_length) {
        stat_add(STAT_BAD_LOCATIONS, 1);
        return;
    }
    if (f->pending_bci == location) f->pending_bci = -1; /* posted after all */
    resolve_pending(ts, f, posted_before);
    count_step(ts, f, location);
}

static void JNICALL on_exception_catch(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method,
                                       jlocation location, jobject exception) {
    (void)jvmti; (void)exception;
    if (tl_in_agent) return;
    TState *ts = thread_state(jni, thread, 0);
    if (ts->depth == 0 || ts->frames[ts->depth - 1].m->id != method) {
        stat_add(STAT_UNMATCHED_EXITS, 1);
        return;
    }
    SFrame *f = &ts->frames[ts->depth - 1];
    resolve_pending(ts, f, ts->posted);
    f->catch_bci = location;
}

static void JNICALL on_thread_end(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread) {
    (void)jvmti; (void)jni; (void)thread;
    TState *ts = tl_state;
    if (ts == NULL) return;
    lock();
    if (ts->win_depth > 0) stat_add(STAT_OPEN_AT_END, 1);
    ts->alive = 0;
    unlock();
    tl_state = NULL; /* the state stays on g_threads (small), so VMDeath never reads freed memory */
}

/* ------------------------------------------------------------------ natives: arraycopy and clone */

typedef void(JNICALL *ArrayCopyFn)(JNIEnv *, jclass, jobject, jint, jobject, jint, jint);
typedef jobject(JNICALL *CloneFn)(JNIEnv *, jobject);
static ArrayCopyFn g_orig_arraycopy;
static CloneFn g_orig_clone;

static int copy_counts(void) {
    TState *ts = tl_state;
    if (ts == NULL || tl_in_agent || ts->win_depth == 0 || ts->excl_depth > 0) return 0;
    return 1;
}

static void JNICALL deep_arraycopy(JNIEnv *env, jclass cls, jobject src, jint src_pos, jobject dst, jint dst_pos,
                                   jint length) {
    stat_add(STAT_ARRAYCOPY_CALLS, 1);
    if (copy_counts()) {
        tl_state->win_copied += (uint64_t)(int64_t)length;
        path_copied(tl_state, (uint64_t)(int64_t)length);
        stat_add(STAT_ARRAYCOPY_COUNTED, 1);
    }
    g_orig_arraycopy(env, cls, src, src_pos, dst, dst_pos, length);
}

static jobject JNICALL deep_clone(JNIEnv *env, jobject self) {
    stat_add(STAT_CLONE_CALLS, 1);
    if (self != NULL && copy_counts()) {
        jclass klass = (*env)->GetObjectClass(env, self);
        char *sig = NULL;
        if ((*g_jvmti)->GetClassSignature(g_jvmti, klass, &sig, NULL) == JVMTI_ERROR_NONE) {
            if (sig[0] == '[') {
                uint64_t n = (uint64_t)(*env)->GetArrayLength(env, (jarray)self);
                tl_state->win_copied += n;
                path_copied(tl_state, n);
                stat_add(STAT_CLONE_COUNTED, 1);
            }
            (*g_jvmti)->Deallocate(g_jvmti, (unsigned char *)sig);
        }
        (*env)->DeleteLocalRef(env, klass);
    }
    return g_orig_clone(env, self);
}

#define ARRAYCOPY_DESC "(Ljava/lang/Object;ILjava/lang/Object;II)V"
#define CLONE_DESC "()Ljava/lang/Object;"

typedef struct EarlyBind {
    jmethodID method;
    void *address;
} EarlyBind;
static EarlyBind g_early[256];
static int g_nearly;

/* libjvm's own functions the JDK binds the two natives to (JDK 9+), looked up at load time: a bind in
 * the primordial phase, where names cannot be read yet, is recognised by its address. */
static void *g_jvm_arraycopy, *g_jvm_clone;
static jmethodID g_hooked_arraycopy, g_hooked_clone;

static void hook(int which, jmethodID method, void *address, void **new_address_ptr, int how) {
    if (which == STAT_HOOK_ARRAYCOPY) {
        g_orig_arraycopy = (ArrayCopyFn)address;
        g_hooked_arraycopy = method;
        *new_address_ptr = (void *)deep_arraycopy;
    } else {
        g_orig_clone = (CloneFn)address;
        g_hooked_clone = method;
        *new_address_ptr = (void *)deep_clone;
    }
    stat_set(which, (uint64_t)how);
    if (atomic_load(&g_live)) stat_add(STAT_HOOK_LATE, 1);
}

static void JNICALL on_native_bind(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method, void *address,
                                   void **new_address_ptr) {
    (void)jni; (void)thread;
    if (address == (void *)deep_arraycopy || address == (void *)deep_clone) return; /* our RegisterNatives */
    char *name = NULL, *desc = NULL, *sig = NULL;
    jclass klass = NULL;
    if ((*jvmti)->GetMethodName(jvmti, method, &name, &desc, NULL) != JVMTI_ERROR_NONE ||
        (*jvmti)->GetMethodDeclaringClass(jvmti, method, &klass) != JVMTI_ERROR_NONE ||
        (*jvmti)->GetClassSignature(jvmti, klass, &sig, NULL) != JVMTI_ERROR_NONE) {
        /* Too early to read names (primordial phase). JVM_ArrayCopy and JVM_Clone are bound to nothing
         * else; VMInit checks the jmethodID. Anything else is remembered for VMInit. */
        if (address != NULL && address == g_jvm_arraycopy) {
            hook(STAT_HOOK_ARRAYCOPY, method, address, new_address_ptr, 2);
        } else if (address != NULL && address == g_jvm_clone) {
            hook(STAT_HOOK_CLONE, method, address, new_address_ptr, 2);
        } else if (g_nearly < (int)(sizeof g_early / sizeof g_early[0])) {
            g_early[g_nearly].method = method;
            g_early[g_nearly].address = address;
            g_nearly++;
        } else {
            stat_add(STAT_BIND_UNKNOWN, 1);
        }
        return;
    }
    if (strcmp(sig, "Ljava/lang/System;") == 0 && strcmp(name, "arraycopy") == 0 && strcmp(desc, ARRAYCOPY_DESC) == 0)
        hook(STAT_HOOK_ARRAYCOPY, method, address, new_address_ptr, 1);
    else if (strcmp(sig, "Ljava/lang/Object;") == 0 && strcmp(name, "clone") == 0 && strcmp(desc, CLONE_DESC) == 0)
        hook(STAT_HOOK_CLONE, method, address, new_address_ptr, 1);
    (*jvmti)->Deallocate(jvmti, (unsigned char *)name);
    (*jvmti)->Deallocate(jvmti, (unsigned char *)desc);
    (*jvmti)->Deallocate(jvmti, (unsigned char *)sig);
}

/* At VMInit: check a native hooked by its address; re-register (JNI RegisterNatives) one bound before
 * names could be read and not recognised. */
static void hook_early(JNIEnv *jni, const char *cls_name, const char *name, const char *desc, int is_static,
                       void **orig, jmethodID *hooked, void *wrapper, int stat) {
    jclass cls = (*jni)->FindClass(jni, cls_name);
    if (cls == NULL) {
        (*jni)->ExceptionClear(jni);
        return;
    }
    jmethodID id = is_static ? (*jni)->GetStaticMethodID(jni, cls, name, desc) : (*jni)->GetMethodID(jni, cls, name, desc);
    if (id == NULL) {
        (*jni)->ExceptionClear(jni);
        return;
    }
    if (atomic_load(&g_stats[stat])) {
        if (*hooked != id) stat_add(STAT_HOOK_MISMATCH, 1);
        return;
    }
    for (int i = 0; i < g_nearly; i++) {
        if (g_early[i].method != id) continue;
        *orig = g_early[i].address;
        *hooked = id;
        JNINativeMethod native = {(char *)name, (char *)desc, wrapper};
        if ((*jni)->RegisterNatives(jni, cls, &native, 1) != 0) {
            (*jni)->ExceptionClear(jni);
            *orig = NULL;
            return;
        }
        stat_set(stat, 3);
        return;
    }
    /* not bound yet: NativeMethodBind comes when it is first called */
}

/* ------------------------------------------------------------------ lifecycle */

static void JNICALL on_class_prepare(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jclass klass) {
    (void)jvmti; (void)thread;
    if (tl_in_agent) return;
    tag_class(jni, klass);
}

static void JNICALL on_vm_init(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread) {
    (void)thread;
    jclass class_class = (*jni)->FindClass(jni, "java/lang/Class");
    if (class_class != NULL) {
        g_is_hidden = (*jni)->GetMethodID(jni, class_class, "isHidden", "()Z");
        if (g_is_hidden == NULL) (*jni)->ExceptionClear(jni);
    } else {
        (*jni)->ExceptionClear(jni);
    }
    stat_set(STAT_HIDDEN_API, g_is_hidden != NULL);
    hook_early(jni, "java/lang/System", "arraycopy", ARRAYCOPY_DESC, 1, (void **)&g_orig_arraycopy,
               &g_hooked_arraycopy, (void *)deep_arraycopy, STAT_HOOK_ARRAYCOPY);
    hook_early(jni, "java/lang/Object", "clone", CLONE_DESC, 0, (void **)&g_orig_clone, &g_hooked_clone,
               (void *)deep_clone, STAT_HOOK_CLONE);
    /* Classes prepared before ClassPrepare events: tag them now. */
    jint nclasses = 0;
    jclass *classes = NULL;
    check((*jvmti)->GetLoadedClasses(jvmti, &nclasses, &classes), "GetLoadedClasses");
    for (jint i = 0; i < nclasses; i++) {
        jint status = 0;
        if ((*jvmti)->GetClassStatus(jvmti, classes[i], &status) == JVMTI_ERROR_NONE &&
            (status & JVMTI_CLASS_STATUS_PREPARED) && !(status & (JVMTI_CLASS_STATUS_ARRAY | JVMTI_CLASS_STATUS_PRIMITIVE)))
            tag_class(jni, classes[i]);
        (*jni)->DeleteLocalRef(jni, classes[i]);
    }
    (*jvmti)->Deallocate(jvmti, (unsigned char *)classes);
    atomic_store(&g_live, 1);
    enable(JVMTI_EVENT_METHOD_ENTRY, "MethodEntry");
    enable(JVMTI_EVENT_METHOD_EXIT, "MethodExit");
    enable(JVMTI_EVENT_EXCEPTION_CATCH, "ExceptionCatch");
    enable(JVMTI_EVENT_SINGLE_STEP, "SingleStep");
}

static void write_method_counts(FILE *out, const Record *r) {
    for (int i = 0; i < r->cap && i < g_nmethods; i++) {
        if (r->methods[i] == 0) continue;
        const MethodInfo *m = g_methods[i];
        fprintf(out, "C %s %s %s %llu\n", m->class_name, m->name, m->descriptor, (unsigned long long)r->methods[i]);
    }
}

/* Each path node's target (parents come before children). */
static int *path_targets(void) {
    int *target = xcalloc((size_t)g_paths.n, sizeof(int));
    for (int i = 0; i < g_paths.n; i++) {
        int parent = g_paths.nodes[i].parent;
        target[i] = parent < 0 ? -1 - parent : target[parent];
    }
    return target;
}

/* Every target's paths must hold its two records' totals and copied elements. */
static void check_paths(void) {
    int *target = path_targets();
    uint64_t *steps = xcalloc((size_t)g_ntargets, sizeof(uint64_t));
    uint64_t *copied = xcalloc((size_t)g_ntargets, sizeof(uint64_t));
    for (int i = 0; i < g_paths.n; i++) {
        steps[target[i]] += g_paths.nodes[i].steps;
        copied[target[i]] += g_paths.nodes[i].copied;
    }
    for (int t = 0; t < g_ntargets; t++)
        if (steps[t] != g_targets[t].normal.total + g_targets[t].abrupt.total ||
            copied[t] != g_targets[t].normal.copied + g_targets[t].abrupt.copied)
            stat_add(STAT_PATH_MISMATCH, 1);
    stat_set(STAT_PATHS, (uint64_t)g_paths.n);
    free(target); free(steps); free(copied);
}

static void write_paths(void) {
    FILE *out = fopen(g_paths_path, "w");
    if (out == NULL) {
        perror(g_paths_path);
        return;
    }
    fprintf(out, "# deep-oracle-paths %d\n", DEEP_FORMAT);
    char *used = xcalloc((size_t)g_nmethods, 1);
    for (int i = 0; i < g_paths.n; i++) used[g_paths.nodes[i].method] = 1;
    for (int i = 0; i < g_nmethods; i++)
        if (used[i])
            fprintf(out, "M %d %s %s %s\n", i, g_methods[i]->class_name, g_methods[i]->name, g_methods[i]->descriptor);
    int *target = path_targets();
    int *chain = NULL;
    int chain_cap = 0;
    for (int t = 0; t < g_ntargets; t++) {
        fprintf(out, "T %s %s %s\n", g_targets[t].class_name, g_targets[t].name, g_targets[t].descriptor);
        for (int i = 0; i < g_paths.n; i++) {
            if (target[i] != t) continue;
            const PNode *p = &g_paths.nodes[i];
            fprintf(out, "P %llu %llu %llu", (unsigned long long)p->steps, (unsigned long long)p->entries,
                    (unsigned long long)p->copied);
            int depth = 0;
            for (int k = i; k >= 0; k = g_paths.nodes[k].parent) {
                if (depth == chain_cap) {
                    chain_cap = chain_cap ? chain_cap * 2 : 64;
                    chain = xrealloc(chain, (size_t)chain_cap * sizeof(int));
                }
                chain[depth++] = g_paths.nodes[k].method;
            }
            while (depth > 0) fprintf(out, " %d", chain[--depth]);
            fputc('\n', out);
        }
    }
    free(chain); free(target); free(used);
    if (fclose(out) != 0) perror(g_paths_path);
}

static void write_results(void) {
    for (TState *ts = g_threads; ts != NULL; ts = ts->next_all)
        if (ts->alive && ts->win_depth > 0) stat_add(STAT_OPEN_AT_END, 1);
    if (g_paths_path != NULL) {
        check_paths();
        write_paths();
    }
    FILE *out = fopen(g_out_path, "w");
    if (out == NULL) {
        perror(g_out_path);
        return;
    }
    fprintf(out, "# deep-oracle %d\n", DEEP_FORMAT);
    for (int i = 0; i < STAT_COUNT; i++)
        fprintf(out, "S %s %llu\n", STAT_NAMES[i], (unsigned long long)atomic_load(&g_stats[i]));
    for (int t = 0; t < g_ntargets; t++) {
        Target *target = &g_targets[t];
        fprintf(out, "T %s %s %s\n", target->class_name, target->name, target->descriptor);
        const Record *records[2] = {&target->normal, &target->abrupt};
        for (int k = 0; k < 2; k++) {
            const Record *r = records[k];
            fprintf(out, "R %s %llu %llu %llu\n", k == 0 ? "normal" : "abrupt", (unsigned long long)r->windows,
                    (unsigned long long)r->total, (unsigned long long)r->copied);
            write_method_counts(out, r);
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

static void read_targets(const char *path) {
    FILE *in = fopen(path, "r");
    if (in == NULL) {
        perror(path);
        fatal("cannot read the targets=@FILE list");
    }
    char line[8192];
    while (fgets(line, sizeof line, in) != NULL) {
        size_t n = strlen(line);
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = '\0';
        if (n == 0) continue;
        char *cls = strtok(line, " ");
        char *name = strtok(NULL, " ");
        char *desc = strtok(NULL, " ");
        if (cls == NULL || name == NULL || desc == NULL || strtok(NULL, " ") != NULL)
            fatal("a targets line is not `class name descriptor`");
        g_targets = xrealloc(g_targets, (size_t)(g_ntargets + 1) * sizeof(Target));
        memset(&g_targets[g_ntargets], 0, sizeof(Target));
        g_targets[g_ntargets].class_name = xstrdup(cls);
        g_targets[g_ntargets].name = xstrdup(name);
        g_targets[g_ntargets].descriptor = xstrdup(desc);
        g_ntargets++;
    }
    fclose(in);
}

static void parse_options(const char *options) {
    if (options == NULL) fatal("options required: out=FILE,targets=@FILE");
    char *copy = xstrdup(options);
    char *save = NULL;
    for (char *item = strtok_r(copy, ",", &save); item != NULL; item = strtok_r(NULL, ",", &save)) {
        if (strncmp(item, "out=", 4) == 0) g_out_path = xstrdup(item + 4);
        else if (strncmp(item, "targets=@", 9) == 0) read_targets(item + 9);
        else if (strncmp(item, "verify=", 7) == 0) g_verify = atoi(item + 7);
        else if (strncmp(item, "repair=", 7) == 0) g_repair = atoi(item + 7);
        else if (strncmp(item, "paths=", 6) == 0) g_paths_path = xstrdup(item + 6);
        else {
            fprintf(stderr, "deep_oracle: unknown option '%s'\n", item);
            exit(70);
        }
    }
    free(copy);
    if (g_out_path == NULL || *g_out_path == '\0') fatal("missing option out=FILE");
    if (g_paths_path != NULL && *g_paths_path == '\0') fatal("option paths= names no file");
    if (g_ntargets == 0) fatal("missing option targets=@FILE (no target methods)");
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved) {
    (void)reserved;
    if ((*vm)->GetEnv(vm, (void **)&g_jvmti, JVMTI_VERSION_1_2) != JNI_OK || g_jvmti == NULL) {
        fprintf(stderr, "deep_oracle: this JVM offers no JVMTI 1.2 environment\n");
        return JNI_ERR;
    }
    parse_options(options);
    g_jvm_arraycopy = dlsym(RTLD_DEFAULT, "JVM_ArrayCopy");
    g_jvm_clone = dlsym(RTLD_DEFAULT, "JVM_Clone");
    jvmtiCapabilities potential, wanted;
    memset(&potential, 0, sizeof potential);
    memset(&wanted, 0, sizeof wanted);
    check((*g_jvmti)->GetPotentialCapabilities(g_jvmti, &potential), "GetPotentialCapabilities");
    if (!potential.can_generate_single_step_events || !potential.can_generate_method_entry_events ||
        !potential.can_generate_method_exit_events || !potential.can_get_bytecodes ||
        !potential.can_generate_native_method_bind_events || !potential.can_tag_objects ||
        !potential.can_generate_exception_events) {
        fprintf(stderr, "deep_oracle: this JVM lacks a JVMTI capability the oracle needs\n");
        return JNI_ERR;
    }
    wanted.can_generate_single_step_events = 1;
    wanted.can_generate_method_entry_events = 1;
    wanted.can_generate_method_exit_events = 1;
    wanted.can_generate_breakpoint_events = potential.can_generate_breakpoint_events; /* no pair rewriting */
    wanted.can_get_bytecodes = 1;
    wanted.can_generate_native_method_bind_events = 1;
    wanted.can_tag_objects = 1;
    /* The environment is in the start phase from the early start on, so the names of the natives
     * java.lang.System and Object bind during VM start-up can be read in NativeMethodBind. */
    wanted.can_generate_early_vmstart = potential.can_generate_early_vmstart;
    wanted.can_generate_exception_events = 1;
    check((*g_jvmti)->AddCapabilities(g_jvmti, &wanted), "AddCapabilities");
    check((*g_jvmti)->CreateRawMonitor(g_jvmti, "deep_oracle", &g_lock), "CreateRawMonitor");
    atomic_store(&g_table, table_new(1 << 14));

    jvmtiEventCallbacks callbacks;
    memset(&callbacks, 0, sizeof callbacks);
    callbacks.VMInit = on_vm_init;
    callbacks.VMDeath = on_vm_death;
    callbacks.ClassPrepare = on_class_prepare;
    callbacks.ThreadEnd = on_thread_end;
    callbacks.MethodEntry = on_method_entry;
    callbacks.MethodExit = on_method_exit;
    callbacks.SingleStep = on_single_step;
    callbacks.ExceptionCatch = on_exception_catch;
    callbacks.NativeMethodBind = on_native_bind;
    check((*g_jvmti)->SetEventCallbacks(g_jvmti, &callbacks, (jint)sizeof callbacks), "SetEventCallbacks");
    enable(JVMTI_EVENT_VM_INIT, "VMInit");
    enable(JVMTI_EVENT_VM_DEATH, "VMDeath");
    enable(JVMTI_EVENT_CLASS_PREPARE, "ClassPrepare");
    enable(JVMTI_EVENT_THREAD_END, "ThreadEnd");
    enable(JVMTI_EVENT_NATIVE_METHOD_BIND, "NativeMethodBind");
    return JNI_OK;
}
