import { fmt } from '../lib/stats';
import { variantLabel } from '../targets';
import { table } from './markdown-cells';
import type { Results } from './results';

// The report's sections on sockets: idle connections held, connect/disconnect churn, and a process restart
// under many sockets.
function idleSection(results: Results): string[] {
  if (!results.idle.length) return [];
  const out = [
    '## Idle connections',
    '',
    'Authenticated notification sockets held open on one server process, opened from several generator processes ' +
      'and loopback source addresses. RSS per connection = (RSS after − RSS before) / n, both after a forced GC.',
    '',
    table(
      [
        'Server',
        'Goal',
        'Attempted (fd limit)',
        'Connected',
        'Failed',
        'Opened/s',
        'RSS before → after MiB',
        'KiB / conn',
        'Heap KiB / conn',
      ],
      results.idle.map((r) => [
        `${variantLabel[r.variant]}${r.machine ? ' †' : ''}`,
        fmt(r.goal),
        `${fmt(r.attempted)} (${fmt(r.fdLimit)})`,
        fmt(r.connected),
        r.failed,
        fmt(r.connectionsPerSecond),
        `${fmt(r.rssBeforeMiB)} → ${fmt(r.rssAfterMiB)}`,
        fmt(r.kibPerConnection, 1),
        fmt(r.heapKibPerConnection, 1),
      ]),
    ),
  ];
  const elsewhere = results.idle.find((r) => r.machine)?.machine;
  if (elsewhere) {
    out.push(
      '',
      `† Measured in ${elsewhere}, where the open-files limit can be raised past this machine's; the count and ` +
        'the memory per connection are the same code doing the same work, the rate of opening is not comparable.',
    );
  }
  out.push('');
  return out;
}

function churnSection(results: Results): string[] {
  if (!results.churn.length) return [];
  return [
    '## Connect/disconnect churn',
    '',
    '50 workers: open an authenticated notification socket, wait for its first frame, close it politely, repeat.',
    '',
    table(
      ['Server', 'Rep', 'Connections/s', 'Setup p50 / p99 ms', 'Server CPU ms / conn', 'Failed'],
      results.churn.map((r) => [
        variantLabel[r.variant],
        r.rep,
        fmt(r.perSecond),
        `${fmt(r.setup.p50, 1)} / ${fmt(r.setup.p99, 1)}`,
        fmt(r.cpuMsPerConnection, 2),
        r.failed,
      ]),
    ),
    '',
  ];
}

function restartSection(results: Results): string[] {
  const restart = results.restart;
  if (!restart) return [];
  return [
    '## A process restart',
    '',
    `Parley on SQLite holds ${fmt(restart.sockets)} sockets (20 rooms of 10 where one member of each sends 5 messages a second, ` +
      'notification sockets for everyone else) from clients that reconnect as the web app does, by its own code ' +
      '(after a 1012 within a second, otherwise capped exponential back-off with jitter, without end), resend what was not confirmed with the same client_id and ' +
      'catch up over HTTP after each reconnect. The process is stopped with SIGTERM and started again on the same port. ' +
      "Lost: a message in the room's history that a member had neither live nor from a catch-up.",
    '',
    table(
      [
        'Sockets (fd limit)',
        'Opened in s',
        'Stop s',
        'Start s',
        'All back after SIGTERM s',
        'Herd s',
        'Reconnections/s',
        'Gave up',
        'Messages sent',
        'Lost / doubled / unsent',
      ],
      [
        [
          `${fmt(restart.sockets)} (${fmt(restart.fdLimit)})`,
          fmt(restart.connectSeconds, 1),
          fmt(restart.stopSeconds, 1),
          fmt(restart.startSeconds, 1),
          fmt(restart.allBackSeconds, 1),
          fmt(restart.herdSeconds, 1),
          fmt(restart.reconnectsPerSecond),
          fmt(restart.gaveUp),
          fmt(restart.sent),
          `${fmt(restart.lost)} / ${fmt(restart.duplicated)} / ${fmt(restart.unsent)}`,
        ],
      ],
    ),
    '',
  ];
}

export const connectionsSections = (results: Results): string[] => [
  ...idleSection(results),
  ...churnSection(results),
  ...restartSection(results),
];
