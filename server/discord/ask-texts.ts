import type { Locale } from '../../src/protocol/locales';

/**
 * What the read commands (/me, /stats, /top, /kvk, /auctions) say, in the six languages; the names of
 * stats and statuses are the cards' own (server/cards/texts.ts). `{name}` holes are filled by `fill`.
 */
export interface AskTexts {
  forbidden: string;
  notYours: string;
  unknownOption: string;
  noGovernor: string;
  noScan: string;
  cardFailed: string;
  myGovernors: string;
  noGovernors: string;
  main: string;
  unverified: string;
  neverScanned: string;
  myPoints: string;
  kvk: string;
  noSeason: string;
  notInSeason: string;
  kvkLine: string;
  top: string;
  topIn: string;
  topEmpty: string;
  auctions: string;
  live: string;
  upcoming: string;
  noAuctions: string;
  liveLine: string;
  upcomingLine: string;
  scanOf: string;
}

export const ASK_TEXTS: Record<Locale, AskTexts> = {
  en: {
    forbidden: 'Your rank may not read this.',
    notYours: 'You may read only your own governors.',
    unknownOption: 'Kingdom does not understand this option: {option}.',
    noGovernor: 'No governor of the latest scan matches “{query}”.',
    noScan: 'No scan has been applied yet.',
    cardFailed: 'The card could not be drawn just now; try again in a minute.',
    myGovernors: 'Your governors',
    noGovernors: 'No governor is linked to your account yet.',
    main: 'main',
    unverified: 'not verified',
    neverScanned: 'never scanned',
    myPoints: 'Points',
    kvk: 'KvK',
    noSeason: 'No KvK season is running.',
    notInSeason: 'Not in the start scan of {season}.',
    kvkLine: '{name}: {dkp} DKP · kills {kills}% · deads {deads}% · {status}',
    top: 'Top {count} by {stat}',
    topIn: 'Top {count} by {stat} in {alliance}',
    topEmpty: 'No governor matches.',
    auctions: 'Auctions',
    live: 'Live',
    upcoming: 'Upcoming',
    noAuctions: 'No auction is live or upcoming.',
    liveLine: '**{name}**: {amount} points · ends {ends}',
    upcomingLine: '**{name}**: from {price} points · starts {starts}',
    scanOf: 'Scan of {date}',
  },
  fr: {
    forbidden: 'Votre rang ne permet pas de lire ceci.',
    notYours: 'Vous ne pouvez lire que vos propres gouverneurs.',
    unknownOption: 'Kingdom ne comprend pas cette option : {option}.',
    noGovernor: 'Aucun gouverneur du dernier scan ne correspond à « {query} ».',
    noScan: 'Aucun scan n’a encore été appliqué.',
    cardFailed: 'La carte n’a pas pu être dessinée pour l’instant ; réessayez dans une minute.',
    myGovernors: 'Vos gouverneurs',
    noGovernors: 'Aucun gouverneur n’est encore lié à votre compte.',
    main: 'principal',
    unverified: 'non vérifié',
    neverScanned: 'jamais scanné',
    myPoints: 'Points',
    kvk: 'KvK',
    noSeason: 'Aucune saison KvK n’est en cours.',
    notInSeason: 'Absent du scan de départ de {season}.',
    kvkLine: '{name} : {dkp} DKP · éliminations {kills} % · morts {deads} % · {status}',
    top: 'Top {count} par {stat}',
    topIn: 'Top {count} par {stat} dans {alliance}',
    topEmpty: 'Aucun gouverneur ne correspond.',
    auctions: 'Enchères',
    live: 'En cours',
    upcoming: 'À venir',
    noAuctions: 'Aucune enchère en cours ni à venir.',
    liveLine: '**{name}** : {amount} points · fin {ends}',
    upcomingLine: '**{name}** : dès {price} points · début {starts}',
    scanOf: 'Scan du {date}',
  },
  es: {
    forbidden: 'Tu rango no permite leer esto.',
    notYours: 'Solo puedes leer tus propios gobernadores.',
    unknownOption: 'Kingdom no entiende esta opción: {option}.',
    noGovernor: 'Ningún gobernador del último escaneo coincide con «{query}».',
    noScan: 'Aún no se ha aplicado ningún escaneo.',
    cardFailed: 'No se pudo dibujar la tarjeta ahora; inténtalo de nuevo en un minuto.',
    myGovernors: 'Tus gobernadores',
    noGovernors: 'Aún no hay ningún gobernador vinculado a tu cuenta.',
    main: 'principal',
    unverified: 'sin verificar',
    neverScanned: 'nunca escaneado',
    myPoints: 'Puntos',
    kvk: 'KvK',
    noSeason: 'No hay ninguna temporada de KvK en curso.',
    notInSeason: 'No está en el escaneo inicial de {season}.',
    kvkLine: '{name}: {dkp} DKP · bajas {kills} % · muertos {deads} % · {status}',
    top: 'Los {count} primeros por {stat}',
    topIn: 'Los {count} primeros por {stat} en {alliance}',
    topEmpty: 'Ningún gobernador coincide.',
    auctions: 'Subastas',
    live: 'En curso',
    upcoming: 'Próximas',
    noAuctions: 'No hay subastas en curso ni próximas.',
    liveLine: '**{name}**: {amount} puntos · termina {ends}',
    upcomingLine: '**{name}**: desde {price} puntos · empieza {starts}',
    scanOf: 'Escaneo del {date}',
  },
  it: {
    forbidden: 'Il tuo grado non permette di leggere questo.',
    notYours: 'Puoi leggere solo i tuoi governatori.',
    unknownOption: 'Kingdom non capisce questa opzione: {option}.',
    noGovernor: 'Nessun governatore dell’ultima scansione corrisponde a «{query}».',
    noScan: 'Non è ancora stata applicata nessuna scansione.',
    cardFailed: 'Non è stato possibile disegnare la scheda ora; riprova tra un minuto.',
    myGovernors: 'I tuoi governatori',
    noGovernors: 'Nessun governatore è ancora collegato al tuo account.',
    main: 'principale',
    unverified: 'non verificato',
    neverScanned: 'mai scansionato',
    myPoints: 'Punti',
    kvk: 'KvK',
    noSeason: 'Nessuna stagione KvK è in corso.',
    notInSeason: 'Non presente nella scansione iniziale di {season}.',
    kvkLine: '{name}: {dkp} DKP · uccisioni {kills}% · morti {deads}% · {status}',
    top: 'I primi {count} per {stat}',
    topIn: 'I primi {count} per {stat} in {alliance}',
    topEmpty: 'Nessun governatore corrisponde.',
    auctions: 'Aste',
    live: 'In corso',
    upcoming: 'In arrivo',
    noAuctions: 'Nessuna asta in corso o in arrivo.',
    liveLine: '**{name}**: {amount} punti · termina {ends}',
    upcomingLine: '**{name}**: da {price} punti · inizia {starts}',
    scanOf: 'Scansione del {date}',
  },
  zh: {
    forbidden: '你的职级无权查看此内容。',
    notYours: '你只能查看自己的总督。',
    unknownOption: 'Kingdom 无法理解此选项：{option}。',
    noGovernor: '最新扫描中没有与“{query}”匹配的总督。',
    noScan: '尚未应用任何扫描。',
    cardFailed: '暂时无法生成卡片，请一分钟后再试。',
    myGovernors: '你的总督',
    noGovernors: '你的账户尚未关联任何总督。',
    main: '主号',
    unverified: '未验证',
    neverScanned: '从未被扫描',
    myPoints: '积分',
    kvk: '王国之战',
    noSeason: '当前没有进行中的 KvK 赛季。',
    notInSeason: '不在 {season} 的起始扫描中。',
    kvkLine: '{name}：{dkp} DKP · 击杀 {kills}% · 阵亡 {deads}% · {status}',
    top: '{stat} 前 {count} 名',
    topIn: '{alliance} 中 {stat} 前 {count} 名',
    topEmpty: '没有匹配的总督。',
    auctions: '拍卖',
    live: '进行中',
    upcoming: '即将开始',
    noAuctions: '没有进行中或即将开始的拍卖。',
    liveLine: '**{name}**：{amount} 积分 · 结束于 {ends}',
    upcomingLine: '**{name}**：起拍 {price} 积分 · 开始于 {starts}',
    scanOf: '{date} 的扫描',
  },
  ar: {
    forbidden: 'لا تسمح رتبتك بقراءة هذا.',
    notYours: 'لا يمكنك قراءة إلا حكّامك.',
    unknownOption: 'لا يفهم Kingdom هذا الخيار: {option}.',
    noGovernor: 'لا حاكم في آخر مسح يطابق «{query}».',
    noScan: 'لم يُطبَّق أي مسح بعد.',
    cardFailed: 'تعذّر رسم البطاقة الآن؛ حاول مجددًا بعد دقيقة.',
    myGovernors: 'حكّامك',
    noGovernors: 'لا حاكم مرتبط بحسابك بعد.',
    main: 'الرئيسي',
    unverified: 'غير موثَّق',
    neverScanned: 'لم يُمسح قط',
    myPoints: 'النقاط',
    kvk: 'حرب الممالك',
    noSeason: 'لا يجري أي موسم KvK الآن.',
    notInSeason: 'ليس في مسح بداية {season}.',
    kvkLine: '{name}: {dkp} DKP · القتل {kills}٪ · القتلى {deads}٪ · {status}',
    top: 'أعلى {count} حسب {stat}',
    topIn: 'أعلى {count} حسب {stat} في {alliance}',
    topEmpty: 'لا حاكم يطابق.',
    auctions: 'المزادات',
    live: 'جارية',
    upcoming: 'قادمة',
    noAuctions: 'لا مزاد جارٍ ولا قادم.',
    liveLine: '**{name}**: {amount} نقطة · تنتهي {ends}',
    upcomingLine: '**{name}**: من {price} نقطة · تبدأ {starts}',
    scanOf: 'مسح {date}',
  },
};
