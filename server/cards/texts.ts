import { fill } from '../../src/protocol/texts';
import type { Locale } from '../../src/protocol/locales';

/**
 * The words drawn on the cards, in the six languages (the cards are images: the server says them in
 * the reader's language, where its other texts stay English on the wire). `{x}` is filled by `say`.
 */
export interface CardTexts {
  governor: string;
  id: string;
  noAlliance: string;
  power: string;
  killpoints: string;
  deads: string;
  t4Kills: string;
  t5Kills: string;
  notScanned: string;
  noChange: string;
  rankPower: string;
  rankKillpoints: string;
  scanOf: string;
  kvk: string;
  dkp: string;
  kills: string;
  required: string;
  met: string;
  'not-met': string;
  exempt: string;
  zeroed: string;
  standings: string;
  top: string;
  wholeSeason: string;
  window: string;
  alliance: string;
  running: string;
  period: string;
  totals: string;
  governors: string;
  metCount: string;
  noStandings: string;
  name: string;
  progress: string;
  status: string;
  sold: string;
  winner: string;
  price: string;
  points: string;
}

export const CARD_TEXTS: Record<Locale, CardTexts> = {
  en: {
    governor: 'Governor',
    id: 'ID {id}',
    noAlliance: 'No alliance',
    power: 'Power',
    killpoints: 'Kill points',
    deads: 'Deads',
    t4Kills: 'T4 kills',
    t5Kills: 'T5 kills',
    notScanned: 'not scanned',
    noChange: 'no earlier scan',
    rankPower: 'Rank by power',
    rankKillpoints: 'Rank by kill points',
    scanOf: 'Scan of {date}',
    kvk: 'KvK: {season}',
    dkp: 'DKP',
    kills: 'Kills',
    required: '{done} of {required}',
    met: 'Met',
    'not-met': 'Not met',
    exempt: 'Exempt',
    zeroed: 'Zeroed',
    standings: 'KvK standings',
    top: 'Top {n}',
    wholeSeason: 'Whole season',
    window: 'Window: {name}',
    alliance: 'Alliance {tag}',
    running: 'running',
    period: '{from} – {to}',
    totals: 'Totals',
    governors: 'Governors',
    metCount: 'Met',
    noStandings: 'No standings yet.',
    name: 'Governor',
    progress: 'Progress (kills / deads)',
    status: 'Status',
    sold: 'Sold',
    winner: 'Winner',
    price: 'Price',
    points: '{n} points',
  },
  zh: {
    governor: '总督',
    id: 'ID {id}',
    noAlliance: '无联盟',
    power: '战力',
    killpoints: '击杀点数',
    deads: '阵亡',
    t4Kills: 'T4 击杀',
    t5Kills: 'T5 击杀',
    notScanned: '未扫描',
    noChange: '无更早的扫描',
    rankPower: '战力排名',
    rankKillpoints: '击杀点数排名',
    scanOf: '扫描于 {date}',
    kvk: '王国之战：{season}',
    dkp: 'DKP',
    kills: '击杀',
    required: '{done} / {required}',
    met: '达标',
    'not-met': '未达标',
    exempt: '豁免',
    zeroed: '被清零',
    standings: '王国之战排名',
    top: '前 {n} 名',
    wholeSeason: '整个赛季',
    window: '阶段：{name}',
    alliance: '联盟 {tag}',
    running: '进行中',
    period: '{from} – {to}',
    totals: '合计',
    governors: '总督',
    metCount: '达标',
    noStandings: '暂无排名。',
    name: '总督',
    progress: '进度（击杀 / 阵亡）',
    status: '状态',
    sold: '已售出',
    winner: '得主',
    price: '价格',
    points: '{n} 点',
  },
  ar: {
    governor: 'الحاكم',
    id: 'المعرّف {id}',
    noAlliance: 'بلا تحالف',
    power: 'القوة',
    killpoints: 'نقاط القتل',
    deads: 'القتلى',
    t4Kills: 'قتلى T4',
    t5Kills: 'قتلى T5',
    notScanned: 'لم يُمسح',
    noChange: 'لا مسح سابق',
    rankPower: 'الترتيب بالقوة',
    rankKillpoints: 'الترتيب بنقاط القتل',
    scanOf: 'مسح {date}',
    kvk: 'حرب الممالك: {season}',
    dkp: 'DKP',
    kills: 'القتل',
    required: '{done} من {required}',
    met: 'مستوفى',
    'not-met': 'غير مستوفى',
    exempt: 'معفى',
    zeroed: 'مُصفَّر',
    standings: 'ترتيب حرب الممالك',
    top: 'أفضل {n}',
    wholeSeason: 'الموسم كله',
    window: 'المرحلة: {name}',
    alliance: 'التحالف {tag}',
    running: 'جارٍ',
    period: '{from} – {to}',
    totals: 'المجاميع',
    governors: 'الحكام',
    metCount: 'مستوفى',
    noStandings: 'لا ترتيب بعد.',
    name: 'الحاكم',
    progress: 'التقدم (القتل / القتلى)',
    status: 'الحالة',
    sold: 'بيع',
    winner: 'الفائز',
    price: 'السعر',
    points: '{n} نقطة',
  },
  it: {
    governor: 'Governatore',
    id: 'ID {id}',
    noAlliance: 'Nessuna alleanza',
    power: 'Potenza',
    killpoints: 'Punti uccisione',
    deads: 'Morti',
    t4Kills: 'Uccisioni T4',
    t5Kills: 'Uccisioni T5',
    notScanned: 'non rilevato',
    noChange: 'nessuna scansione precedente',
    rankPower: 'Posizione per potenza',
    rankKillpoints: 'Posizione per punti uccisione',
    scanOf: 'Scansione del {date}',
    kvk: 'KvK: {season}',
    dkp: 'DKP',
    kills: 'Uccisioni',
    required: '{done} su {required}',
    met: 'Raggiunto',
    'not-met': 'Non raggiunto',
    exempt: 'Esente',
    zeroed: 'Azzerato',
    standings: 'Classifica KvK',
    top: 'Primi {n}',
    wholeSeason: 'Intera stagione',
    window: 'Fase: {name}',
    alliance: 'Alleanza {tag}',
    running: 'in corso',
    period: '{from} – {to}',
    totals: 'Totali',
    governors: 'Governatori',
    metCount: 'Raggiunti',
    noStandings: 'Ancora nessuna classifica.',
    name: 'Governatore',
    progress: 'Avanzamento (uccisioni / morti)',
    status: 'Stato',
    sold: 'Venduto',
    winner: 'Vincitore',
    price: 'Prezzo',
    points: '{n} punti',
  },
  es: {
    governor: 'Gobernador',
    id: 'ID {id}',
    noAlliance: 'Sin alianza',
    power: 'Poder',
    killpoints: 'Puntos de muerte',
    deads: 'Muertos',
    t4Kills: 'Bajas T4',
    t5Kills: 'Bajas T5',
    notScanned: 'sin escanear',
    noChange: 'sin escaneo anterior',
    rankPower: 'Puesto por poder',
    rankKillpoints: 'Puesto por puntos de muerte',
    scanOf: 'Escaneo del {date}',
    kvk: 'KvK: {season}',
    dkp: 'DKP',
    kills: 'Bajas',
    required: '{done} de {required}',
    met: 'Cumplido',
    'not-met': 'No cumplido',
    exempt: 'Exento',
    zeroed: 'Puesto a cero',
    standings: 'Clasificación KvK',
    top: 'Los {n} primeros',
    wholeSeason: 'Toda la temporada',
    window: 'Fase: {name}',
    alliance: 'Alianza {tag}',
    running: 'en curso',
    period: '{from} – {to}',
    totals: 'Totales',
    governors: 'Gobernadores',
    metCount: 'Cumplen',
    noStandings: 'Aún no hay clasificación.',
    name: 'Gobernador',
    progress: 'Progreso (bajas / muertos)',
    status: 'Estado',
    sold: 'Vendido',
    winner: 'Ganador',
    price: 'Precio',
    points: '{n} puntos',
  },
  fr: {
    governor: 'Gouverneur',
    id: 'ID {id}',
    noAlliance: 'Sans alliance',
    power: 'Puissance',
    killpoints: 'Points d’élimination',
    deads: 'Morts',
    t4Kills: 'Éliminations T4',
    t5Kills: 'Éliminations T5',
    notScanned: 'non relevé',
    noChange: 'aucun relevé antérieur',
    rankPower: 'Rang par puissance',
    rankKillpoints: 'Rang par points d’élimination',
    scanOf: 'Relevé du {date}',
    kvk: 'KvK : {season}',
    dkp: 'DKP',
    kills: 'Éliminations',
    required: '{done} sur {required}',
    met: 'Atteint',
    'not-met': 'Non atteint',
    exempt: 'Exempté',
    zeroed: 'Remis à zéro',
    standings: 'Classement KvK',
    top: 'Les {n} premiers',
    wholeSeason: 'Toute la saison',
    window: 'Phase : {name}',
    alliance: 'Alliance {tag}',
    running: 'en cours',
    period: '{from} – {to}',
    totals: 'Totaux',
    governors: 'Gouverneurs',
    metCount: 'Atteints',
    noStandings: 'Pas encore de classement.',
    name: 'Gouverneur',
    progress: 'Progression (éliminations / morts)',
    status: 'Statut',
    sold: 'Vendu',
    winner: 'Gagnant',
    price: 'Prix',
    points: '{n} points',
  },
};

/** A text with its `{name}` places filled. */
export function say(text: string, values: Record<string, string> = {}): string {
  return fill(text, values);
}
