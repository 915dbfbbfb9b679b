/*
 * A QEMU TCG plugin that counts the guest instructions a program executes (issue 22).
 *
 * Instruction counts, unlike seconds, repeat on a shared machine: the same binary on the same
 * input executes the same instructions whatever else the machine does. valgrind's callgrind
 * would give them, but valgrind 3.19 (Debian 12's) cannot run Swift 6.3 binaries: it rejects
 * their DWARF 5 debug info, and with the debug info stripped it dies of an internal SIGSEGV as
 * libdispatch starts its threads (BENCHMARKS.md). `perf stat -e instructions` needs a PMU, which
 * this VM does not expose. QEMU's user-mode emulator (Debian's qemu-user, built with plugin
 * support) runs the same binaries and hands every translated block to this plugin.
 *
 * Usage: qemu-x86_64 -plugin ./libinsncount.so,out=FILE PROGRAM ARGS...
 * FILE holds the running total as decimal text, rewritten every 100 ms and at exit, so a
 * benchmark reads it at the moments it chooses (a stack at rest before and after a load).
 *
 * Debian ships no qemu-plugin.h; the few declarations below are QEMU's plugin API as of its
 * version 1 (QEMU 7.2, include/qemu/qemu-plugin.h), which later versions keep.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_CB_R_REGS, QEMU_PLUGIN_CB_RW_REGS };
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
extern void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
extern size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
extern void qemu_plugin_register_vcpu_tb_exec_cb(
    struct qemu_plugin_tb *tb, qemu_plugin_vcpu_udata_cb_t cb, enum qemu_plugin_cb_flags flags, void *userdata);
extern void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

/* Every guest thread is a vCPU running in parallel: the total is added to atomically (an inline
 * add would lose counts between threads, and counts that are lost do not repeat). */
static uint64_t total;
static char *out_path;

static void block_executed(unsigned int vcpu, void *instructions) {
    (void)vcpu;
    __atomic_fetch_add(&total, (uint64_t)(uintptr_t)instructions, __ATOMIC_RELAXED);
}

static void block_translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
    (void)id;
    size_t instructions = qemu_plugin_tb_n_insns(tb);
    qemu_plugin_register_vcpu_tb_exec_cb(
        tb, block_executed, QEMU_PLUGIN_CB_NO_REGS, (void *)(uintptr_t)instructions);
}

/* Written to a temporary file and renamed over FILE, so a reader never sees half a number. */
static void write_total(void) {
    char tmp[4096], text[32];
    snprintf(tmp, sizeof tmp, "%s.tmp", out_path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return;
    int length = snprintf(text, sizeof text, "%llu\n",
                          (unsigned long long)__atomic_load_n(&total, __ATOMIC_RELAXED));
    ssize_t written = write(fd, text, (size_t)length);
    close(fd);
    if (written == length) rename(tmp, out_path);
}

static void *writer(void *unused) {
    (void)unused;
    for (;;) {
        usleep(100 * 1000);
        write_total();
    }
    return NULL;
}

static void at_exit(qemu_plugin_id_t id, void *unused) {
    (void)id;
    (void)unused;
    write_total();
}

__attribute__((visibility("default"))) int qemu_plugin_install(
    qemu_plugin_id_t id, const void *info, int argc, char **argv) {
    (void)info;
    for (int i = 0; i < argc; i++) {
        if (strncmp(argv[i], "out=", 4) == 0) out_path = strdup(argv[i] + 4);
    }
    if (out_path == NULL) {
        fprintf(stderr, "insncount: give the plugin out=FILE\n");
        return -1;
    }
    pthread_t thread;
    if (pthread_create(&thread, NULL, writer, NULL) != 0) return -1;
    pthread_detach(thread);
    qemu_plugin_register_vcpu_tb_trans_cb(id, block_translated);
    qemu_plugin_register_atexit_cb(id, at_exit, NULL);
    return 0;
}
