import { seesAdminMenu, seesKingdomMenu } from '../../protocol/ranks';

/** The sidebar: three groups, shown by rank. Menus are not security. */
export interface MenuLink {
  labelId: string;
  path: string;
}
export interface MenuSubmenu {
  labelId: string;
  children: MenuLink[];
}
export type MenuEntry = MenuLink | MenuSubmenu;
export interface MenuGroup {
  id: 'account' | 'kingdom' | 'admin';
  labelId: string;
  entries: MenuEntry[];
}

const GROUPS: (MenuGroup & { visible: (rank: unknown) => boolean })[] = [
  {
    id: 'account',
    labelId: 'menu.myAccount',
    visible: () => true,
    entries: [
      { labelId: 'menu.profile', path: '/my-account/profile' },
      { labelId: 'menu.kingdomStore', path: '/my-account/kingdom-store' },
      { labelId: 'menu.notices', path: '/my-account/notices' },
    ],
  },
  {
    id: 'kingdom',
    labelId: 'menu.myKingdom',
    visible: seesKingdomMenu,
    entries: [
      { labelId: 'menu.dashboard', path: '/my-kingdom/dashboard' },
      { labelId: 'menu.kvkDashboard', path: '/my-kingdom/kvk-dashboard' },
      { labelId: 'menu.metrics', path: '/my-kingdom/metrics' },
      {
        labelId: 'menu.kingdomPoints',
        children: [
          { labelId: 'menu.storeManagement', path: '/my-kingdom/kingdom-points/store-management' },
          { labelId: 'menu.pointManagement', path: '/my-kingdom/kingdom-points/point-management' },
          { labelId: 'menu.storeHistory', path: '/my-kingdom/kingdom-points/store-history' },
        ],
      },
      { labelId: 'menu.migrantDashboard', path: '/my-kingdom/migrant-dashboard' },
      {
        labelId: 'menu.kingdomSettings',
        children: [
          { labelId: 'menu.settings', path: '/my-kingdom/settings' },
          { labelId: 'menu.automaticPoints', path: '/my-kingdom/kingdom-points/automatic-points' },
        ],
      },
    ],
  },
  {
    id: 'admin',
    labelId: 'menu.admin',
    visible: seesAdminMenu,
    entries: [
      { labelId: 'menu.adminDashboard', path: '/admin/admin-dashboard' },
      { labelId: 'menu.kvkManagement', path: '/admin/kvk-management' },
      { labelId: 'menu.kingdomManagement', path: '/admin/kingdom-management' },
      { labelId: 'menu.playerIds', path: '/admin/player-ids' },
      { labelId: 'menu.alliances', path: '/admin/alliances' },
      {
        labelId: 'menu.servers',
        children: [
          { labelId: 'menu.botStatus', path: '/admin/bot/status' },
          { labelId: 'menu.botMonitor', path: '/admin/bot/monitor' },
        ],
      },
      { labelId: 'menu.scans', path: '/admin/scans' },
      { labelId: 'menu.users', path: '/admin/users' },
    ],
  },
];

export function menuFor(rank: unknown): MenuGroup[] {
  return GROUPS.filter((g) => g.visible(rank)).map(({ id, labelId, entries }) => ({ id, labelId, entries }));
}

export function isSubmenu(entry: MenuEntry): entry is MenuSubmenu {
  return 'children' in entry;
}
