/**
 * Every CLI command, loaded only when it runs: `lint` never loads amqplib or express, `serve`
 * loads the HTTP app. Adding a command: one entry below (its module exports the function and
 * its usage line).
 */
import type { CliIo } from './commands/context.js';

export type CommandFn = (argv: readonly string[], io: CliIo) => Promise<number>;

export interface LoadedCommand {
  readonly run: CommandFn;
  /** one usage line, without the program name */
  readonly usage: string;
}

export interface CommandEntry {
  readonly name: string;
  /** what it does, in a few words (the top-level help) */
  readonly summary: string;
  readonly load: () => Promise<LoadedCommand>;
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'templates',
    summary: 'list the retry templates',
    load: async () => {
      const m = await import('./commands/templates.js');
      return { run: m.templatesCommand, usage: m.TEMPLATES_USAGE };
    },
  },
  {
    name: 'generate',
    summary: 'build a template in any export format',
    load: async () => {
      const m = await import('./commands/generate.js');
      return { run: m.generateCommand, usage: m.GENERATE_USAGE };
    },
  },
  {
    name: 'lint',
    summary: 'the retry linter (text, json, sarif, github); exit 1 on errors',
    load: async () => {
      const m = await import('./commands/lint.js');
      return { run: m.lintCommand, usage: m.LINT_USAGE };
    },
  },
  {
    name: 'simulate',
    summary: "the retry budget and each message's path",
    load: async () => {
      const m = await import('./commands/simulate.js');
      return { run: m.simulateCommand, usage: m.SIMULATE_USAGE };
    },
  },
  {
    name: 'export',
    summary: 'a design or definitions file in another format',
    load: async () => {
      const m = await import('./commands/exportCmd.js');
      return { run: m.exportCommand, usage: m.EXPORT_USAGE };
    },
  },
  {
    name: 'import',
    summary: 'definitions JSON to design JSON',
    load: async () => {
      const m = await import('./commands/importCmd.js');
      return { run: m.importCommand, usage: m.IMPORT_USAGE };
    },
  },
  {
    name: 'rehearse',
    summary: 'a load with outages at production rate: depths, memory, parked, delays, the retry storm',
    load: async () => {
      const m = await import('./commands/rehearse.js');
      return { run: m.rehearseCommand, usage: m.REHEARSE_USAGE };
    },
  },
  {
    name: 'compare',
    summary: 'strategies side by side under one failure model',
    load: async () => {
      const m = await import('./commands/compare.js');
      return { run: m.compareCommand, usage: m.COMPARE_USAGE };
    },
  },
  {
    name: 'scenario',
    summary: 'a retry-scenario/1 file for a template',
    load: async () => {
      const m = await import('./commands/scenario.js');
      return { run: m.scenarioCommand, usage: m.SCENARIO_USAGE };
    },
  },
  {
    name: 'rename',
    summary: 'rename a queue or exchange and every reference to it',
    load: async () => {
      const m = await import('./commands/rename.js');
      return { run: m.renameCommand, usage: m.RENAME_USAGE };
    },
  },
  {
    name: 'import-app',
    summary: "an application's retry configuration (Spring, MassTransit, NServiceBus, Celery) into a design",
    load: async () => {
      const m = await import('./commands/importApp.js');
      return { run: m.importAppCommand, usage: m.IMPORT_APP_USAGE };
    },
  },
  {
    name: 'prove-app',
    summary: "import-app's reading checked by running the real framework against a real broker",
    load: async () => {
      const m = await import('./commands/proveApp.js');
      return { run: m.proveAppCommand, usage: m.PROVE_APP_USAGE };
    },
  },
  {
    name: 'import-broker',
    summary: 'a live vhost into a design',
    load: async () => {
      const m = await import('./commands/importBroker.js');
      return { run: m.importBrokerCommand, usage: m.IMPORT_BROKER_USAGE };
    },
  },
  {
    name: 'dlq',
    summary: 'browse and re-drive dead letters',
    load: async () => {
      const m = await import('./commands/dlq.js');
      return { run: m.dlqCommand, usage: m.DLQ_USAGE };
    },
  },
  {
    name: 'upgrade-check',
    summary: 'what changes for a topology from RabbitMQ 3.x to 4.x, and its migration',
    load: async () => {
      const m = await import('./commands/upgradeCheck.js');
      return { run: m.upgradeCheckCommand, usage: m.UPGRADE_CHECK_USAGE };
    },
  },
  {
    name: 'calibrate',
    summary: "measure a broker's RAM and disk per message and one queue's ceilings (rehearse/tune --calibration)",
    load: async () => {
      const m = await import('./commands/calibrate.js');
      return { run: m.calibrateCommand, usage: m.CALIBRATE_USAGE };
    },
  },
  {
    name: 'tune',
    summary: 'search strategies and parameters against a failure profile and goals',
    load: async () => {
      const m = await import('./commands/tune.js');
      return { run: m.tuneCommand, usage: m.TUNE_USAGE };
    },
  },
  {
    name: 'cleanup',
    summary: 'delete the throwaway vhosts a killed run left on a broker',
    load: async () => {
      const m = await import('./commands/cleanup.js');
      return { run: m.cleanupCommand, usage: m.CLEANUP_USAGE };
    },
  },
  {
    name: 'serve',
    summary: 'the web app and the API',
    load: async () => {
      const m = await import('./commands/serve.js');
      return { run: m.serveCommand, usage: m.SERVE_USAGE };
    },
  },
];

export const commandNamed = (name: string): CommandEntry | undefined => COMMANDS.find((c) => c.name === name);
