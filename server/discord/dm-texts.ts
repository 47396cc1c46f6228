import type { NoticeKind } from '../../src/protocol/notices';
import type { Locale } from '../../src/protocol/locales';

/**
 * A notice said as a Discord direct message, in the player's language: `{item}` is the item's
 * name, `{amount}` its points (a bid, a price, a grant), written the player's way. `pointsDown` is
 * `points` for a deduction.
 */
export type DirectTexts = Record<NoticeKind | 'pointsDown', string>;

export const DM_TEXTS: Record<Locale, DirectTexts> = {
  en: {
    started: 'Bidding started on {item}, which you watch: from {amount} points.',
    ending: '{item} ends soon: the bid stands at {amount} points.',
    outbid: 'You were outbid on {item}: the bid is now {amount} points.',
    won: 'You won {item} for {amount} points.',
    lost: '{item} went to another player for {amount} points.',
    'max-exhausted': 'Your maximum bid of {amount} points on {item} was passed.',
    'max-dropped': 'Your maximum bid of {amount} points on {item} was dropped: your available points no longer covered the next raise.',
    points: 'You were granted {amount} points.',
    pointsDown: '{amount} points were deducted from your balance.',
    automatic: 'You earned {amount} points automatically from the latest scan.',
  },
  fr: {
    started: 'Les enchères ont commencé sur {item}, que vous suivez : à partir de {amount} points.',
    ending: '{item} se termine bientôt : l’enchère est à {amount} points.',
    outbid: 'Vous avez été surenchéri sur {item} : l’enchère est maintenant de {amount} points.',
    won: 'Vous avez remporté {item} pour {amount} points.',
    lost: '{item} est allé à un autre joueur pour {amount} points.',
    'max-exhausted': 'Votre enchère maximale de {amount} points sur {item} a été dépassée.',
    'max-dropped': 'Votre enchère maximale de {amount} points sur {item} a été retirée : vos points disponibles ne couvraient plus la relance suivante.',
    points: 'Vous avez reçu {amount} points.',
    pointsDown: '{amount} points ont été retirés de votre solde.',
    automatic: 'Vous avez gagné {amount} points automatiquement grâce au dernier scan.',
  },
  es: {
    started: 'Empezó la puja por {item}, que sigues: desde {amount} puntos.',
    ending: '{item} termina pronto: la puja está en {amount} puntos.',
    outbid: 'Te superaron en {item}: la puja es ahora de {amount} puntos.',
    won: 'Ganaste {item} por {amount} puntos.',
    lost: '{item} fue para otro jugador por {amount} puntos.',
    'max-exhausted': 'Tu puja máxima de {amount} puntos por {item} fue superada.',
    'max-dropped': 'Tu puja máxima de {amount} puntos por {item} se retiró: tus puntos disponibles ya no cubrían la siguiente subida.',
    points: 'Recibiste {amount} puntos.',
    pointsDown: 'Se descontaron {amount} puntos de tu saldo.',
    automatic: 'Ganaste {amount} puntos automáticamente con el último escaneo.',
  },
  it: {
    started: 'Sono iniziate le offerte per {item}, che segui: da {amount} punti.',
    ending: '{item} sta per chiudersi: l’offerta è a {amount} punti.',
    outbid: 'Sei stato superato su {item}: l’offerta ora è di {amount} punti.',
    won: 'Hai vinto {item} per {amount} punti.',
    lost: '{item} è andato a un altro giocatore per {amount} punti.',
    'max-exhausted': 'La tua offerta massima di {amount} punti su {item} è stata superata.',
    'max-dropped': 'La tua offerta massima di {amount} punti su {item} è stata ritirata: i tuoi punti disponibili non coprivano più il rilancio successivo.',
    points: 'Hai ricevuto {amount} punti.',
    pointsDown: 'Sono stati detratti {amount} punti dal tuo saldo.',
    automatic: 'Hai guadagnato {amount} punti automaticamente con l’ultima scansione.',
  },
  zh: {
    started: '你关注的 {item} 开始竞拍：起拍 {amount} 积分。',
    ending: '{item} 即将结束：当前出价 {amount} 积分。',
    outbid: '你在 {item} 上的出价被超过：当前出价 {amount} 积分。',
    won: '你以 {amount} 积分赢得了 {item}。',
    lost: '{item} 以 {amount} 积分被其他玩家拍得。',
    'max-exhausted': '你在 {item} 上 {amount} 积分的最高出价已被超过。',
    'max-dropped': '你在 {item} 上 {amount} 积分的最高出价已被取消：你的可用积分不足以支付下一次加价。',
    points: '你获得了 {amount} 积分。',
    pointsDown: '你的余额被扣除了 {amount} 积分。',
    automatic: '根据最新扫描，你自动获得了 {amount} 积分。',
  },
  ar: {
    started: 'بدأت المزايدة على {item} الذي تتابعه: ابتداءً من {amount} نقطة.',
    ending: 'ينتهي {item} قريبًا: المزايدة عند {amount} نقطة.',
    outbid: 'تمت المزايدة عليك في {item}: المزايدة الآن {amount} نقطة.',
    won: 'ربحت {item} مقابل {amount} نقطة.',
    lost: 'ذهب {item} إلى لاعب آخر مقابل {amount} نقطة.',
    'max-exhausted': 'تم تجاوز مزايدتك القصوى البالغة {amount} نقطة على {item}.',
    'max-dropped': 'أُلغيت مزايدتك القصوى البالغة {amount} نقطة على {item}: لم تعد نقاطك المتاحة تغطي الزيادة التالية.',
    points: 'حصلت على {amount} نقطة.',
    pointsDown: 'خُصمت {amount} نقطة من رصيدك.',
    automatic: 'ربحت {amount} نقطة تلقائيًا من آخر مسح.',
  },
};
