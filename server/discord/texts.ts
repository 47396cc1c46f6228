import type { Locale } from '../../src/protocol/locales';

/** What the bot says in Discord, in the six languages; `{name}` holes are filled by `fill` (src/protocol/texts). */
export interface DiscordTexts {
  link: string;
  needsLink: string;
  unknown: string;
  /** A Discord user over their budget of commands. */
  slowDown: string;
  disabled: string;
  points: string;
  lastEntries: string;
  noEntries: string;
  test: string;
  /** Announcements (embeds in the announcement language). */
  started: string;
  startedBody: string;
  sold: string;
  soldBody: string;
  noBuyer: string;
  noBids: string;
  reserveNotMet: string;
  scan: string;
  scanBody: string;
  scanChange: string;
  scanFirst: string;
  pointsRun: string;
  pointsRunBody: string;
  pointsRunAuto: string;
  kvkPosted: string;
  kvkPostedBody: string;
  kvkWindow: string;
  kvkAlliance: string;
}

export const DISCORD_TEXTS: Record<Locale, DiscordTexts> = {
  en: {
    link: 'Open this link within 10 minutes, signed in to Kingdom, to link your Discord account: {url}',
    needsLink: 'Link your Kingdom account first: type /link.',
    unknown: 'Kingdom does not know this command.',
    slowDown: 'You are sending commands faster than Kingdom answers them: wait a minute, then try again.',
    disabled: 'Your Kingdom account is disabled.',
    points: 'Your points: {balance} · reserved {reserved} · available {available}',
    lastEntries: 'Last entries:',
    noEntries: 'No entries yet.',
    test: 'Kingdom is connected: {kind} announcements will appear in this channel.',
    started: 'Bidding started: {name}',
    startedBody: 'Starting price: {price} points · ends {ends}',
    sold: 'Sold: {name}',
    soldBody: '{buyer} won it for {amount} points.',
    noBuyer: 'No buyer: {name}',
    noBids: 'Nobody bid.',
    reserveNotMet: 'The bids did not reach the reserve price.',
    scan: 'Scan applied',
    scanBody: '{governors} governors, scanned {taken}.',
    scanChange: 'Change since the scan of {date}.',
    scanFirst: 'The first scan: no change to show yet.',
    pointsRun: 'Automatic points: {rule}',
    pointsRunBody: '{total} points booked in {entries} entries.',
    pointsRunAuto: 'Run by itself after the scan.',
    kvkPosted: 'KvK standings: {season}',
    kvkPostedBody: 'The top {top} by DKP.',
    kvkWindow: 'Window: {window}',
    kvkAlliance: 'Alliance: {alliance}',
  },
  fr: {
    link: 'Ouvrez ce lien dans les 10 minutes, connecté à Kingdom, pour lier votre compte Discord : {url}',
    needsLink: 'Liez d’abord votre compte Kingdom : tapez /link.',
    unknown: 'Kingdom ne connaît pas cette commande.',
    slowDown: 'Vous envoyez des commandes plus vite que Kingdom n\'y répond : attendez une minute, puis réessayez.',
    disabled: 'Votre compte Kingdom est désactivé.',
    points: 'Vos points : {balance} · réservés {reserved} · disponibles {available}',
    lastEntries: 'Dernières opérations :',
    noEntries: 'Aucune opération pour l’instant.',
    test: 'Kingdom est connecté : les annonces « {kind} » apparaîtront dans ce salon.',
    started: 'Enchères ouvertes : {name}',
    startedBody: 'Prix de départ : {price} points · fin {ends}',
    sold: 'Vendu : {name}',
    soldBody: '{buyer} l’a remporté pour {amount} points.',
    noBuyer: 'Sans acheteur : {name}',
    noBids: 'Personne n’a enchéri.',
    reserveNotMet: 'Les enchères n’ont pas atteint le prix de réserve.',
    scan: 'Scan appliqué',
    scanBody: '{governors} gouverneurs, scannés {taken}.',
    scanChange: 'Évolution depuis le scan du {date}.',
    scanFirst: 'Premier scan : pas encore d’évolution à montrer.',
    pointsRun: 'Points automatiques : {rule}',
    pointsRunBody: '{total} points comptabilisés en {entries} opérations.',
    pointsRunAuto: 'Exécutée d’elle-même après le scan.',
    kvkPosted: 'Classement KvK : {season}',
    kvkPostedBody: 'Les {top} premiers en DKP.',
    kvkWindow: 'Fenêtre : {window}',
    kvkAlliance: 'Alliance : {alliance}',
  },
  es: {
    link: 'Abre este enlace en los próximos 10 minutos, con tu sesión de Kingdom iniciada, para vincular tu cuenta de Discord: {url}',
    needsLink: 'Primero vincula tu cuenta de Kingdom: escribe /link.',
    unknown: 'Kingdom no conoce este comando.',
    slowDown: 'Envías comandos más rápido de lo que Kingdom los responde: espera un minuto y vuelve a intentarlo.',
    disabled: 'Tu cuenta de Kingdom está desactivada.',
    points: 'Tus puntos: {balance} · reservados {reserved} · disponibles {available}',
    lastEntries: 'Últimos movimientos:',
    noEntries: 'Aún no hay movimientos.',
    test: 'Kingdom está conectado: los anuncios de «{kind}» aparecerán en este canal.',
    started: 'Comienza la puja: {name}',
    startedBody: 'Precio de salida: {price} puntos · termina {ends}',
    sold: 'Vendido: {name}',
    soldBody: '{buyer} lo ganó por {amount} puntos.',
    noBuyer: 'Sin comprador: {name}',
    noBids: 'Nadie pujó.',
    reserveNotMet: 'Las pujas no alcanzaron el precio de reserva.',
    scan: 'Escaneo aplicado',
    scanBody: '{governors} gobernadores, escaneados {taken}.',
    scanChange: 'Cambio desde el escaneo del {date}.',
    scanFirst: 'El primer escaneo: aún no hay cambios que mostrar.',
    pointsRun: 'Puntos automáticos: {rule}',
    pointsRunBody: '{total} puntos anotados en {entries} movimientos.',
    pointsRunAuto: 'Se ejecutó sola tras el escaneo.',
    kvkPosted: 'Clasificación de KvK: {season}',
    kvkPostedBody: 'Los {top} primeros por DKP.',
    kvkWindow: 'Ventana: {window}',
    kvkAlliance: 'Alianza: {alliance}',
  },
  it: {
    link: 'Apri questo link entro 10 minuti, con l’accesso a Kingdom, per collegare il tuo account Discord: {url}',
    needsLink: 'Collega prima il tuo account Kingdom: scrivi /link.',
    unknown: 'Kingdom non conosce questo comando.',
    slowDown: 'Stai inviando comandi più in fretta di quanto Kingdom risponda: aspetta un minuto, poi riprova.',
    disabled: 'Il tuo account Kingdom è disattivato.',
    points: 'I tuoi punti: {balance} · riservati {reserved} · disponibili {available}',
    lastEntries: 'Ultimi movimenti:',
    noEntries: 'Ancora nessun movimento.',
    test: 'Kingdom è collegato: gli annunci «{kind}» compariranno in questo canale.',
    started: 'Asta aperta: {name}',
    startedBody: 'Prezzo di partenza: {price} punti · termina {ends}',
    sold: 'Venduto: {name}',
    soldBody: '{buyer} l’ha vinto per {amount} punti.',
    noBuyer: 'Nessun acquirente: {name}',
    noBids: 'Nessuno ha offerto.',
    reserveNotMet: 'Le offerte non hanno raggiunto il prezzo di riserva.',
    scan: 'Scansione applicata',
    scanBody: '{governors} governatori, scansionati {taken}.',
    scanChange: 'Variazione dalla scansione del {date}.',
    scanFirst: 'La prima scansione: ancora nessuna variazione da mostrare.',
    pointsRun: 'Punti automatici: {rule}',
    pointsRunBody: '{total} punti registrati in {entries} movimenti.',
    pointsRunAuto: 'Eseguita da sola dopo la scansione.',
    kvkPosted: 'Classifica KvK: {season}',
    kvkPostedBody: 'I primi {top} per DKP.',
    kvkWindow: 'Finestra: {window}',
    kvkAlliance: 'Alleanza: {alliance}',
  },
  zh: {
    link: '请在 10 分钟内、登录 Kingdom 后打开此链接，以关联你的 Discord 账户：{url}',
    needsLink: '请先关联你的 Kingdom 账户：输入 /link。',
    unknown: 'Kingdom 不认识此命令。',
    slowDown: '你发送命令的速度超过了 Kingdom 的回复速度：请等一分钟后再试。',
    disabled: '你的 Kingdom 账户已被停用。',
    points: '你的积分：{balance} · 已冻结 {reserved} · 可用 {available}',
    lastEntries: '最近记录：',
    noEntries: '暂无记录。',
    test: 'Kingdom 已连接：「{kind}」公告将出现在此频道。',
    started: '竞拍开始：{name}',
    startedBody: '起拍价：{price} 积分 · 结束于 {ends}',
    sold: '已成交：{name}',
    soldBody: '{buyer} 以 {amount} 积分拍得。',
    noBuyer: '流拍：{name}',
    noBids: '无人出价。',
    reserveNotMet: '出价未达到保留价。',
    scan: '扫描已应用',
    scanBody: '{governors} 名总督，扫描于 {taken}。',
    scanChange: '与 {date} 的扫描相比的变化。',
    scanFirst: '首次扫描：暂无变化可显示。',
    pointsRun: '自动积分：{rule}',
    pointsRunBody: '共记入 {total} 积分，{entries} 条记录。',
    pointsRunAuto: '扫描后自动运行。',
    kvkPosted: '王国之战排名：{season}',
    kvkPostedBody: 'DKP 前 {top} 名。',
    kvkWindow: '阶段：{window}',
    kvkAlliance: '联盟：{alliance}',
  },
  ar: {
    link: 'افتح هذا الرابط خلال 10 دقائق وأنت مسجّل الدخول إلى Kingdom لربط حسابك في Discord: {url}',
    needsLink: 'اربط حسابك في Kingdom أولًا: اكتب /link.',
    unknown: 'لا يعرف Kingdom هذا الأمر.',
    slowDown: 'ترسل الأوامر أسرع مما يجيب عنها Kingdom: انتظر دقيقة ثم حاول مرة أخرى.',
    disabled: 'حسابك في Kingdom معطّل.',
    points: 'نقاطك: {balance} · محجوزة {reserved} · متاحة {available}',
    lastEntries: 'آخر القيود:',
    noEntries: 'لا قيود بعد.',
    test: 'Kingdom متصل: ستظهر إعلانات «{kind}» في هذه القناة.',
    started: 'بدأت المزايدة: {name}',
    startedBody: 'سعر البداية: {price} نقطة · تنتهي {ends}',
    sold: 'بيع: {name}',
    soldBody: 'فاز به {buyer} مقابل {amount} نقطة.',
    noBuyer: 'بلا مشترٍ: {name}',
    noBids: 'لم يزايد أحد.',
    reserveNotMet: 'لم تبلغ المزايدات السعر الأدنى المحجوز.',
    scan: 'طُبّق مسح جديد',
    scanBody: '{governors} حاكمًا، مُسحوا {taken}.',
    scanChange: 'التغيّر منذ مسح {date}.',
    scanFirst: 'أول مسح: لا تغيّر يُعرض بعد.',
    pointsRun: 'النقاط التلقائية: {rule}',
    pointsRunBody: 'قُيّدت {total} نقطة في {entries} قيدًا.',
    pointsRunAuto: 'جرت تلقائيًا بعد المسح.',
    kvkPosted: 'ترتيب حرب الممالك: {season}',
    kvkPostedBody: 'أفضل {top} حسب DKP.',
    kvkWindow: 'المرحلة: {window}',
    kvkAlliance: 'التحالف: {alliance}',
  },
};

/** The six languages from a Discord locale (en-US, zh-CN, es-ES, fr, it…); any other: English. */
export function localeOfDiscord(locale: string | undefined): Locale {
  const base = (locale ?? '').toLowerCase().split('-')[0];
  return base === 'zh' || base === 'es' || base === 'fr' || base === 'it' || base === 'ar' ? base : 'en';
}
