import type { ComponentType } from 'react';
import { lazyPage as lazy } from './lib/lazy-page';

/** Every protected route, with the page that serves it. Pages load lazily. */
const ProfilePage = lazy(() => import('./pages/my-account/profile-page'));
const AccountSettingsPage = lazy(() => import('./pages/my-account/account-settings-page'));
const NoticesPage = lazy(() => import('./pages/my-account/notices-page'));
const KingdomStorePage = lazy(() => import('./pages/my-account/kingdom-store/kingdom-store-page'));
const StoreManagementPage = lazy(() => import('./pages/my-kingdom/kingdom-points/store-management-page'));
const PointManagementPage = lazy(() => import('./pages/my-kingdom/kingdom-points/point-management-page'));
const StoreHistoryPage = lazy(() => import('./pages/my-kingdom/kingdom-points/store-history-page'));
const KingdomSettingsPage = lazy(() => import('./pages/my-kingdom/settings-page'));
const GroupsPage = lazy(() => import('./pages/my-account/groups-page'));
const ScansPage = lazy(() => import('./pages/admin/scans-page'));
const DashboardPage = lazy(() => import('./pages/my-kingdom/dashboard-page'));
const MetricsPage = lazy(() => import('./pages/my-kingdom/metrics-page'));
const GovernorPage = lazy(() => import('./pages/my-kingdom/governor-page'));
const PlayerIdsPage = lazy(() => import('./pages/admin/player-ids-page'));
const AlliancesPage = lazy(() => import('./pages/admin/alliances-page'));
const KvkDashboardPage = lazy(() => import('./pages/my-kingdom/kvk-dashboard-page'));
const KvkManagementPage = lazy(() => import('./pages/admin/kvk-management-page'));
const BotStatusPage = lazy(() => import('./pages/admin/bot/bot-status-page'));
const BotMonitorPage = lazy(() => import('./pages/admin/bot/bot-monitor-page'));
const BotConsolePage = lazy(() => import('./pages/admin/bot/bot-console-page'));
const AdminDashboardPage = lazy(() => import('./pages/admin/admin-dashboard-page'));
const KingdomManagementPage = lazy(() => import('./pages/admin/kingdom-management-page'));
const UsersPage = lazy(() => import('./pages/admin/users-page'));
const MigrantDashboardPage = lazy(() => import('./pages/my-kingdom/migrant-dashboard-page'));
const AutomaticPointsPage = lazy(() => import('./pages/my-kingdom/kingdom-points/automatic-points-page'));

export interface ProtectedRoute {
  path: string;
  titleId: string;
  page: ComponentType<{ titleId: string }>;
}

export const PROTECTED_ROUTES: ProtectedRoute[] = [
  { path: '/my-account/profile', titleId: 'menu.profile', page: ProfilePage },
  { path: '/my-account/account-settings', titleId: 'menu.accountSettings', page: AccountSettingsPage },
  { path: '/my-account/groups', titleId: 'menu.groups', page: GroupsPage },
  { path: '/my-account/kingdom-store', titleId: 'menu.kingdomStore', page: KingdomStorePage },
  { path: '/my-account/notices', titleId: 'menu.notices', page: NoticesPage },
  { path: '/my-kingdom/dashboard', titleId: 'menu.dashboard', page: DashboardPage },
  { path: '/my-kingdom/kvk-dashboard', titleId: 'menu.kvkDashboard', page: KvkDashboardPage },
  { path: '/my-kingdom/metrics', titleId: 'menu.metrics', page: MetricsPage },
  // a governor's page: reached from every table, no menu entry
  { path: '/my-kingdom/governors/:governorId', titleId: 'governor.title', page: GovernorPage },
  { path: '/my-kingdom/kingdom-points/store-management', titleId: 'menu.storeManagement', page: StoreManagementPage },
  { path: '/my-kingdom/kingdom-points/point-management', titleId: 'menu.pointManagement', page: PointManagementPage },
  { path: '/my-kingdom/kingdom-points/store-history', titleId: 'menu.storeHistory', page: StoreHistoryPage },
  { path: '/my-kingdom/kingdom-points/automatic-points', titleId: 'menu.automaticPoints', page: AutomaticPointsPage },
  { path: '/my-kingdom/settings', titleId: 'menu.settings', page: KingdomSettingsPage },
  { path: '/my-kingdom/migrant-dashboard', titleId: 'menu.migrantDashboard', page: MigrantDashboardPage },
  { path: '/admin/admin-dashboard', titleId: 'menu.adminDashboard', page: AdminDashboardPage },
  { path: '/admin/kvk-management', titleId: 'menu.kvkManagement', page: KvkManagementPage },
  { path: '/admin/kingdom-management', titleId: 'menu.kingdomManagement', page: KingdomManagementPage },
  { path: '/admin/scans', titleId: 'menu.scans', page: ScansPage },
  { path: '/admin/users', titleId: 'menu.users', page: UsersPage },
  { path: '/admin/bot/status', titleId: 'menu.botStatus', page: BotStatusPage },
  { path: '/admin/bot/monitor', titleId: 'menu.botMonitor', page: BotMonitorPage },
  { path: '/admin/bot/console', titleId: 'menu.botConsole', page: BotConsolePage },
  { path: '/admin/player-ids', titleId: 'menu.playerIds', page: PlayerIdsPage },
  { path: '/admin/alliances', titleId: 'menu.alliances', page: AlliancesPage },
];

export const HOME_PATH = '/my-account/profile';

/** After sign-in, the requested address unless it was /, empty or /signin. */
export function landingPath(returnTo: string | null): string {
  if (!returnTo) return HOME_PATH;
  const path = returnTo.split(/[?#]/)[0];
  if (path === '' || path === '/' || path === '/signin' || path === '/signup' || !returnTo.startsWith('/') || returnTo.startsWith('//')) {
    return HOME_PATH;
  }
  return returnTo;
}
