import type { Locale } from '../../src/protocol/locales';

/**
 * The column titles of the exports (CSV and XLSX), in the six languages: the titles the pages show
 * over the same columns (SCREEN_KEYS names each one's text in src/locales, and
 * tests/unit/export-titles.test.ts holds them equal), and a few of the exports' own for columns no
 * page shows. The server writes them in the reader's language, as it draws the cards.
 */
export type ExportTitle = keyof (typeof EXPORT_TITLES)['en'];

/** The page text each title repeats (src/locales/<locale>.json); a title not here is the exports' own. */
export const SCREEN_KEYS: Partial<Record<ExportTitle, string>> = {
  governorId: 'stats.playerIds.governorId', name: 'stat.governor', alliance: 'stat.alliance', kingdom: 'migrants.kingdom', power: 'stat.power',
  killpoints: 'stat.killpoints', deads: 'stat.deads', t1Kills: 'stat.t1Kills', t2Kills: 'stat.t2Kills', t3Kills: 'stat.t3Kills',
  t4Kills: 'stat.t4Kills', t5Kills: 'stat.t5Kills', rssGathered: 'stat.rssGathered', rssAssistance: 'stat.rssAssistance', helps: 'stat.helps',
  startPower: 'kvk.col.startPower', powerGain: 'kvk.col.powerGain', dkp: 'kvk.col.dkp', killsProgress: 'kvk.col.killsProgress',
  deadsProgress: 'kvk.col.deadsProgress', status: 'kvk.col.status', reason: 'points.col.reason', likelyReason: 'migrants.reason',
  item: 'history.col.item', outcome: 'history.col.outcome', buyer: 'history.col.buyer', price: 'history.col.price', ended: 'history.col.at',
  date: 'points.col.at', player: 'points.col.player', kind: 'points.col.kind', points: 'points.col.delta', balanceAfter: 'points.col.balanceAfter',
  by: 'points.col.actor', when: 'admin.audit.when', who: 'admin.audit.actor', action: 'admin.audit.action', onWhat: 'admin.audit.target',
  detail: 'admin.audit.detail',
};

export const EXPORT_TITLES = {
  en: {
    governorId: 'Governor id', name: 'Governor', alliance: 'Alliance', kingdom: 'Kingdom', power: 'Power', killpoints: 'Kill points', deads: 'Deaths',
    t1Kills: 'T1 kills', t2Kills: 'T2 kills', t3Kills: 'T3 kills', t4Kills: 'T4 kills', t5Kills: 'T5 kills', rssGathered: 'Resources gathered',
    rssAssistance: 'Resource assistance', helps: 'Helps', startPower: 'Start power', powerGain: 'Power change', dkp: 'DKP',
    killsProgress: 'Kills progress', deadsProgress: 'Deaths progress', status: 'Status', reason: 'Reason', likelyReason: 'Likely reason',
    item: 'Item', outcome: 'Outcome', buyer: 'Buyer', price: 'Price', ended: 'Ended', date: 'Date', player: 'Player', kind: 'Kind', points: 'Points',
    balanceAfter: 'Balance after', by: 'By', when: 'When', who: 'Who', action: 'Action', onWhat: 'On what', detail: 'Detail',
    totalKills: 'Total kills', t45Kills: 'T4 and T5 kills', ranged: 'Ranged', acclaim: 'Acclaim', highestAcclaim: 'Highest acclaim',
    change: '{title}: change', requiredKills: 'Required kills', requiredDeads: 'Required deaths', suggestedZeroed: 'Suggested zeroed',
    itemId: 'Item id', id: 'Id',
  },
  zh: {
    governorId: '总督 ID', name: '总督', alliance: '联盟', kingdom: '王国', power: '战力', killpoints: '击杀积分', deads: '阵亡', t1Kills: 'T1 击杀', t2Kills: 'T2 击杀',
    t3Kills: 'T3 击杀', t4Kills: 'T4 击杀', t5Kills: 'T5 击杀', rssGathered: '资源采集', rssAssistance: '资源援助', helps: '帮助', startPower: '起始战力',
    powerGain: '战力变化', dkp: 'DKP', killsProgress: '击杀进度', deadsProgress: '阵亡进度', status: '状态', reason: '原因', likelyReason: '可能原因', item: '物品',
    outcome: '结果', buyer: '买家', price: '价格', ended: '结束时间', date: '日期', player: '玩家', kind: '类型', points: '积分', balanceAfter: '变动后余额', by: '操作人',
    when: '时间', who: '操作人', action: '操作', onWhat: '对象', detail: '详情', totalKills: '总击杀', t45Kills: 'T4和T5击杀', ranged: '远程', acclaim: '赞誉',
    highestAcclaim: '最高赞誉', change: '{title}：变化', requiredKills: '要求击杀', requiredDeads: '要求阵亡', suggestedZeroed: '建议清零', itemId: '物品ID', id: 'ID',
  },
  ar: {
    governorId: 'معرّف الحاكم', name: 'الحاكم', alliance: 'التحالف', kingdom: 'المملكة', power: 'القوة', killpoints: 'نقاط القتل',
    deads: 'القتلى من جيشه', t1Kills: 'قتلى T1', t2Kills: 'قتلى T2', t3Kills: 'قتلى T3', t4Kills: 'قتلى T4', t5Kills: 'قتلى T5',
    rssGathered: 'الموارد المجمّعة', rssAssistance: 'المساعدة بالموارد', helps: 'المساعدات', startPower: 'القوة عند البداية',
    powerGain: 'تغيّر القوة', dkp: 'DKP', killsProgress: 'تقدّم القتل', deadsProgress: 'تقدّم القتلى', status: 'الحالة', reason: 'السبب',
    likelyReason: 'السبب المرجّح', item: 'العنصر', outcome: 'النتيجة', buyer: 'المشتري', price: 'السعر', ended: 'الانتهاء', date: 'التاريخ',
    player: 'اللاعب', kind: 'النوع', points: 'النقاط', balanceAfter: 'الرصيد بعدها', by: 'بواسطة', when: 'متى', who: 'من', action: 'الإجراء',
    onWhat: 'على ماذا', detail: 'التفاصيل', totalKills: 'إجمالي القتلى', t45Kills: 'قتلى T4 وT5', ranged: 'الرماة', acclaim: 'الإشادة',
    highestAcclaim: 'أعلى إشادة', change: '{title}: التغيّر', requiredKills: 'القتلى المطلوبون', requiredDeads: 'الوفيات المطلوبة',
    suggestedZeroed: 'يُقترح تصفيره', itemId: 'معرّف العنصر', id: 'المعرّف',
  },
  it: {
    governorId: 'ID governatore', name: 'Governatore', alliance: 'Alleanza', kingdom: 'Regno', power: 'Potere', killpoints: 'Punti uccisione',
    deads: 'Morti', t1Kills: 'Uccisioni T1', t2Kills: 'Uccisioni T2', t3Kills: 'Uccisioni T3', t4Kills: 'Uccisioni T4', t5Kills: 'Uccisioni T5',
    rssGathered: 'Risorse raccolte', rssAssistance: 'Assistenza risorse', helps: 'Aiuti', startPower: 'Potenza iniziale',
    powerGain: 'Variazione potenza', dkp: 'DKP', killsProgress: 'Progresso uccisioni', deadsProgress: 'Progresso morti', status: 'Stato',
    reason: 'Motivo', likelyReason: 'Motivo probabile', item: 'Oggetto', outcome: 'Esito', buyer: 'Acquirente', price: 'Prezzo', ended: 'Fine',
    date: 'Data', player: 'Giocatore', kind: 'Tipo', points: 'Punti', balanceAfter: 'Saldo dopo', by: 'Da', when: 'Quando', who: 'Chi',
    action: 'Azione', onWhat: 'Su cosa', detail: 'Dettagli', totalKills: 'Uccisioni totali', t45Kills: 'Uccisioni T4 e T5', ranged: 'A distanza',
    acclaim: 'Acclamazione', highestAcclaim: 'Acclamazione massima', change: '{title}: variazione', requiredKills: 'Uccisioni richieste',
    requiredDeads: 'Morti richieste', suggestedZeroed: 'Azzeramento suggerito', itemId: 'ID oggetto', id: 'ID',
  },
  es: {
    governorId: 'ID de gobernador', name: 'Gobernador', alliance: 'Alianza', kingdom: 'Reino', power: 'Poder', killpoints: 'Puntos de muerte',
    deads: 'Muertes', t1Kills: 'Bajas T1', t2Kills: 'Bajas T2', t3Kills: 'Bajas T3', t4Kills: 'Bajas T4', t5Kills: 'Bajas T5',
    rssGathered: 'Recursos recolectados', rssAssistance: 'Asistencia de recursos', helps: 'Ayudas', startPower: 'Poder inicial',
    powerGain: 'Cambio de poder', dkp: 'DKP', killsProgress: 'Progreso de muertes causadas', deadsProgress: 'Progreso de bajas', status: 'Estado',
    reason: 'Motivo', likelyReason: 'Motivo probable', item: 'Artículo', outcome: 'Resultado', buyer: 'Comprador', price: 'Precio', ended: 'Fin',
    date: 'Fecha', player: 'Jugador', kind: 'Tipo', points: 'Puntos', balanceAfter: 'Saldo después', by: 'Por', when: 'Cuándo', who: 'Quién',
    action: 'Acción', onWhat: 'Sobre qué', detail: 'Detalle', totalKills: 'Bajas totales', t45Kills: 'Bajas T4 y T5', ranged: 'A distancia',
    acclaim: 'Aclamación', highestAcclaim: 'Aclamación máxima', change: '{title}: cambio', requiredKills: 'Bajas requeridas',
    requiredDeads: 'Muertes requeridas', suggestedZeroed: 'Puesta a cero sugerida', itemId: 'ID del objeto', id: 'ID',
  },
  fr: {
    governorId: 'ID du gouverneur', name: 'Gouverneur', alliance: 'Alliance', kingdom: 'Royaume', power: 'Puissance', killpoints: 'Points de kill',
    deads: 'Morts', t1Kills: 'Éliminations T1', t2Kills: 'Éliminations T2', t3Kills: 'Éliminations T3', t4Kills: 'Éliminations T4',
    t5Kills: 'Éliminations T5', rssGathered: 'Ressources récoltées', rssAssistance: 'Aide en ressources', helps: 'Aides',
    startPower: 'Puissance de départ', powerGain: 'Variation de puissance', dkp: 'DKP', killsProgress: 'Progression des éliminations',
    deadsProgress: 'Progression des morts', status: 'Statut', reason: 'Motif', likelyReason: 'Raison probable', item: 'Objet', outcome: 'Résultat',
    buyer: 'Acheteur', price: 'Prix', ended: 'Fin', date: 'Date', player: 'Joueur', kind: 'Type', points: 'Points', balanceAfter: 'Solde après',
    by: 'Par', when: 'Quand', who: 'Qui', action: 'Action', onWhat: 'Sur quoi', detail: 'Détail', totalKills: 'Éliminations totales',
    t45Kills: 'Éliminations T4 et T5', ranged: 'À distance', acclaim: 'Acclamation', highestAcclaim: 'Acclamation maximale',
    change: '{title} : variation', requiredKills: 'Éliminations requises', requiredDeads: 'Morts requises', suggestedZeroed: 'Remise à zéro suggérée',
    itemId: 'ID de l’objet', id: 'ID',
  },
} as const satisfies Record<Locale, Record<string, string>>;
