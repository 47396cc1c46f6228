import type { Locale } from '../../src/protocol/locales';

/** What the bot says in Discord, in the six languages; `{name}` holes are filled by `fill` (src/protocol/texts). */
export interface DiscordTexts {
  link: string;
  needsLink: string;
  notYet: string;
  unknown: string;
  disabled: string;
  points: string;
  lastEntries: string;
  noEntries: string;
  test: string;
}

export const DISCORD_TEXTS: Record<Locale, DiscordTexts> = {
  en: {
    link: 'Open this link within 10 minutes, signed in to Kingdom, to link your Discord account: {url}',
    needsLink: 'Link your Kingdom account first: type /link.',
    notYet: 'This command is not available yet.',
    unknown: 'Kingdom does not know this command.',
    disabled: 'Your Kingdom account is disabled.',
    points: 'Your points: {balance} · reserved {reserved} · available {available}',
    lastEntries: 'Last entries:',
    noEntries: 'No entries yet.',
    test: 'Kingdom is connected: {kind} announcements will appear in this channel.',
  },
  fr: {
    link: 'Ouvrez ce lien dans les 10 minutes, connecté à Kingdom, pour lier votre compte Discord : {url}',
    needsLink: 'Liez d’abord votre compte Kingdom : tapez /link.',
    notYet: 'Cette commande n’est pas encore disponible.',
    unknown: 'Kingdom ne connaît pas cette commande.',
    disabled: 'Votre compte Kingdom est désactivé.',
    points: 'Vos points : {balance} · réservés {reserved} · disponibles {available}',
    lastEntries: 'Dernières opérations :',
    noEntries: 'Aucune opération pour l’instant.',
    test: 'Kingdom est connecté : les annonces « {kind} » apparaîtront dans ce salon.',
  },
  es: {
    link: 'Abre este enlace en los próximos 10 minutos, con tu sesión de Kingdom iniciada, para vincular tu cuenta de Discord: {url}',
    needsLink: 'Primero vincula tu cuenta de Kingdom: escribe /link.',
    notYet: 'Este comando aún no está disponible.',
    unknown: 'Kingdom no conoce este comando.',
    disabled: 'Tu cuenta de Kingdom está desactivada.',
    points: 'Tus puntos: {balance} · reservados {reserved} · disponibles {available}',
    lastEntries: 'Últimos movimientos:',
    noEntries: 'Aún no hay movimientos.',
    test: 'Kingdom está conectado: los anuncios de «{kind}» aparecerán en este canal.',
  },
  it: {
    link: 'Apri questo link entro 10 minuti, con l’accesso a Kingdom, per collegare il tuo account Discord: {url}',
    needsLink: 'Collega prima il tuo account Kingdom: scrivi /link.',
    notYet: 'Questo comando non è ancora disponibile.',
    unknown: 'Kingdom non conosce questo comando.',
    disabled: 'Il tuo account Kingdom è disattivato.',
    points: 'I tuoi punti: {balance} · riservati {reserved} · disponibili {available}',
    lastEntries: 'Ultimi movimenti:',
    noEntries: 'Ancora nessun movimento.',
    test: 'Kingdom è collegato: gli annunci «{kind}» compariranno in questo canale.',
  },
  zh: {
    link: '请在 10 分钟内、登录 Kingdom 后打开此链接，以关联你的 Discord 账户：{url}',
    needsLink: '请先关联你的 Kingdom 账户：输入 /link。',
    notYet: '此命令暂不可用。',
    unknown: 'Kingdom 不认识此命令。',
    disabled: '你的 Kingdom 账户已被停用。',
    points: '你的积分：{balance} · 已冻结 {reserved} · 可用 {available}',
    lastEntries: '最近记录：',
    noEntries: '暂无记录。',
    test: 'Kingdom 已连接：「{kind}」公告将出现在此频道。',
  },
  ar: {
    link: 'افتح هذا الرابط خلال 10 دقائق وأنت مسجّل الدخول إلى Kingdom لربط حسابك في Discord: {url}',
    needsLink: 'اربط حسابك في Kingdom أولًا: اكتب /link.',
    notYet: 'هذا الأمر غير متاح بعد.',
    unknown: 'لا يعرف Kingdom هذا الأمر.',
    disabled: 'حسابك في Kingdom معطّل.',
    points: 'نقاطك: {balance} · محجوزة {reserved} · متاحة {available}',
    lastEntries: 'آخر القيود:',
    noEntries: 'لا قيود بعد.',
    test: 'Kingdom متصل: ستظهر إعلانات «{kind}» في هذه القناة.',
  },
};

/** The six languages from a Discord locale (en-US, zh-CN, es-ES, fr, it…); any other: English. */
export function localeOfDiscord(locale: string | undefined): Locale {
  const base = (locale ?? '').toLowerCase().split('-')[0];
  return base === 'zh' || base === 'es' || base === 'fr' || base === 'it' || base === 'ar' ? base : 'en';
}
