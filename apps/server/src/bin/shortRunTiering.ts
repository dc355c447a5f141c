/**
 * A CLI command is a short run: `retry-studio lint` on 1,000 queues does ~50 ms of work, and V8's
 * optimizing compiler, which takes up a function once it has run V8's default interrupt budget of
 * bytecode, compiled its hot functions (checkQueue, the effective settings, the rules) for ~120 ms
 * on its background thread (--trace-opt, on the shared 2-core machine) and gave nothing back before
 * exit. Four times the budget (Node 20's default is 67,584) keeps such runs in the baseline tiers
 * (that lint's process CPU 190 -> 146 ms, its time to exit -10 ms at best and more on a busy
 * machine) and still optimizes what runs long: a 30,000-queue lint takes ~5% longer to exit
 * (1.29 -> 1.36 s) for the same CPU, a 10,000-queue one 4% longer for 15% less CPU (all measured on
 * the shared machine, noisy). Set before any command's code runs, in the
 * bin's process only (never in a test's).
 */
import { setFlagsFromString } from 'node:v8';

export const SHORT_RUN_INTERRUPT_BUDGET = 4 * 67_584;

setFlagsFromString(`--interrupt-budget=${SHORT_RUN_INTERRUPT_BUDGET}`);
