// shared with other page groups, so they live in src/ui/components; the statistics pages import them from here too
export { Change, Num } from '../../components/stats/num';
export { QueryError } from '../../components/query-error';
export { Empty, GovernorLink, ScanLabel, ScanSelect, useScans, useScansApi } from '../../components/stats/scan-parts';
