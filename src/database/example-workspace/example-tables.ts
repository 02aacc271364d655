import type { InitialTable } from '../tables/tables.service';

const LOREM =
  'Lorem ipsum dolor sit amet, consectetur adipiscing elit. Fusce dignissim, urna eget rutrum sollicitudin, sapien diam interdum nisi, quis malesuada nibh eros a est.';

/** The example workspace's "Customers" table (spec §3.4). */
export const EXAMPLE_CUSTOMERS: InitialTable = {
  fields: [
    { name: 'Name', type: 'text' },
    { name: 'Last name', type: 'text' },
    { name: 'Notes', type: 'long_text', width: 400 },
    { name: 'Active', type: 'boolean', width: 100 },
  ],
  rows: [
    ['Ada', 'Lovelace', '', true],
    ['Alan', 'Turing', LOREM, false],
    ['Grace', 'Hopper', '', true],
    ['John', 'Von Neumann', '', true],
    ['Blaise', 'Pascal', '', true],
  ],
};

/** The example workspace's "Projects" table (spec §3.4). */
export const EXAMPLE_PROJECTS: InitialTable = {
  fields: [
    { name: 'Name', type: 'text' },
    { name: 'Started', type: 'date', properties: { date_format: 'EU', date_include_time: false, date_time_format: '24', date_show_tzinfo: false, date_force_timezone: null } },
    { name: 'Active', type: 'boolean', width: 100 },
  ],
  rows: [
    ['Calculator', '1642-01-01', false],
    ['Turing machine', '1936-06-01', true],
    ['Computer architecture', '1945-01-01', false],
    ['Cellular Automata', '1952-06-01', false],
  ],
};
