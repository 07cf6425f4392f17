// German lines and answer vocabulary for the sandbox conversation.
import type { Lexicon } from './lexicon.js';
import type { ObjectiveWords } from './objective.js';

const ASK = ['Können Sie mir sagen: {l}?', 'Darf ich fragen: {l}?', 'Und können Sie mir sagen: {l}?'];

/** Words an objective may start with that are not nouns, so German's capital at the start can go. */
const LEADING_LOWER = /^(einen|eine|einem|einer|ein|den|die|das|dem|der|mit|zu|bei|nach|für|um|über|von|im|am)\b/i;
/** An infinitive first ("Fragen, ob …") or last ("Einen Termin vereinbaren"); German nouns keep their capital. */
const FIRST_INFINITIVE = /^\p{L}+(?:en|ern|eln)(?:,|\s+(?:ob|wann|wo|wie|was|welche[rsmn]?|wer|warum)\s)/iu;
const LAST_INFINITIVE = /\s(\p{Ll}\p{L}*(?:en|ern|eln))$/u;

const OBJECTIVE: ObjectiveWords = {
  isAction: (o) => FIRST_INFINITIVE.test(o) || LAST_INFINITIVE.test(o.split(',')[0]),
  action: (o) => (FIRST_INFINITIVE.test(o) || LEADING_LOWER.test(o) ? o[0].toLowerCase() + o.slice(1) : o),
  callingTo: (action) => `Ich möchte ${action}.`,
  callingAbout: (topic) => `Es geht um Folgendes: ${topic}.`,
  asks: /^(?:fragen|erfragen|nachfragen|herausfinden|klären|wissen|prüfen|überprüfen|bestätigen),?\s+(ob|wann|wo|wie viele|wie viel|wieviel|wie|was|welche[rsmn]?|wer|warum|wieso|weshalb)(\s.*)$/iu,
  yesNo: /^ob$/i,
  question: (q) => `Ich habe eine kurze Frage: Können Sie mir sagen, ${q}?`,
  confirm: 'Können Sie mir das kurz bestätigen?',
  toCallee: (text) => text,
};

export const DE: Lexicon = {
  language: 'de',
  agent: {
    hello: 'Guten Tag, hier spricht ein KI-Assistent im Auftrag eines Kunden.',
    objective: OBJECTIVE,
    background: 'Ich habe schon einige Informationen, es geht also schnell.',
    urgent: 'Es ist etwas dringend, ich fasse mich kurz.',
    moment: ['Haben Sie einen Moment?', 'Könnten Sie mir helfen?', 'Passt es gerade?'],
    ask: (label, type, variant) => (type === 'boolean' ? `Eine Ja-Nein-Frage: ${label}?` : ASK[variant % ASK.length].replace('{l}', label)),
    thanks: ['Danke.', 'Prima, danke.', 'Sehr gut, vielen Dank.'],
    noProblem: ['Kein Problem.', 'Macht nichts.'],
    listening: ['Verstehe.', 'Aha.', 'Ja, ja.', 'Ach so.'],
    allDone: 'Das war alles, was ich brauchte.',
    goodbye: 'Vielen Dank, auf Wiederhören.',
    optOutAck: 'Das verstehe ich, und entschuldigen Sie die Störung. Wir rufen Sie nicht mehr an. Auf Wiederhören.',
    declineTransfer: 'Es tut mir leid, ich kann Sie in diesem Gespräch nicht mit einer Person verbinden, aber ich helfe Ihnen gern selbst.',
    transferring: 'Selbstverständlich. Ich verbinde Sie jetzt mit einem Kollegen; bitte bleiben Sie dran.',
    holdForTransfer: 'Selbstverständlich. Bitte bleiben Sie einen Moment dran, während ich jemanden erreiche.',
    connecting: 'Danke fürs Warten. Ich habe jetzt jemanden für Sie am Apparat und verbinde Sie.',
    transferFailed: 'Es tut mir leid, im Moment ist niemand erreichbar, der Ihren Anruf annehmen kann.',
    briefing: (objective) =>
      `Guten Tag, hier spricht ein KI-Assistent im Auftrag eines Kunden. Ich habe eine Person am Apparat, die mit jemandem sprechen möchte. Der Grund meines Anrufs: ${objective}.`,
    takeCallPrompt: 'Drücken Sie die 1, um den Anruf anzunehmen.',
    nobodyTook: 'Es tut mir leid, niemand konnte Ihren Anruf annehmen. Auf Wiederhören.',
    toolAnswer: (answer) => `Ich habe gerade nachgesehen: ${answer}`,
    followUp: 'Das habe ich leider gerade nicht zur Hand; ich kläre es und melde mich dazu bei Ihnen.',
  },
  callee: {
    hello: ['Hallo?', 'Guten Tag, was kann ich für Sie tun?', 'Ja, bitte?'],
    goAhead: ['Ja, bitte.', 'Natürlich, worum geht es?'],
    noted: ['Gut, ich gebe das weiter.', 'In Ordnung, notiert.'],
    bye: ['Auf Wiederhören!', 'Tschüss, einen schönen Tag noch.'],
    optOut: ['Bitte rufen Sie mich nicht mehr an.', 'Nehmen Sie mich von Ihrer Liste, bitte. Rufen Sie diese Nummer nicht wieder an.', 'Hören Sie bitte auf, mich anzurufen.'],
    asksForPerson: ['Könnte ich bitte mit einem echten Menschen sprechen?', 'Ich würde lieber mit einer Person sprechen, wenn das geht.', 'Können Sie mich bitte mit jemandem verbinden?'],
    willHold: ['Gut, ich warte.', 'In Ordnung, ich bleibe dran.', 'Kein Problem, ich warte.'],
    thankYou: ['Danke.', 'Prima, danke.', 'Vielen Dank.'],
    question: ['Bevor Sie weitermachen: Können Sie mir sagen, wo meine Bestellung ist?', 'Kurze Frage vorab: Wann kommt meine Bestellung an?'],
    answered: ['Ah, gut zu wissen, danke.', 'Prima, danke.'],
    voicemailGreeting: 'Sie sind mit unserer Mailbox verbunden. Wir sind gerade nicht erreichbar; bitte hinterlassen Sie eine Nachricht nach dem Signalton.',
    dontKnow: ['Das weiß ich leider nicht.', 'Keine Ahnung, tut mir leid.', 'Da bin ich mir nicht sicher.', 'Das müsste ich nachsehen, tut mir leid.'],
    yes: ['Ja, genau.', 'Ja.', 'Natürlich.', 'Ja, sicher.', 'Klar.'],
    no: ['Nein, leider nicht.', 'Nein.', 'Leider nicht.', 'Nein, tut mir leid.'],
    number: ['Etwa {n}.', '{n}.', 'Ungefähr {n}, würde ich sagen.'],
    numberWithUnit: ['Das sind {n} {u}.', 'Etwa {n} {u}.'],
    units: { hours: 'Stunden', minutes: 'Minuten', days: 'Tage', money: 'Euro', percent: 'Prozent', people: 'Personen' },
    string: ['Das ist {v}.', 'Das wäre {v}.', 'Also, das wäre {v}.', '{v}.'],
    values: {
      time: ['17 Uhr', '17:30 Uhr', '9 Uhr', 'Mittag'],
      hours: ['9 bis 17 Uhr', '8 bis 18 Uhr'],
      name: ['Anna Schmidt', 'Thomas Müller', 'Julia Weber'],
      day: ['Montag', 'Dienstag', 'Samstag'],
      address: ['Hauptstraße 12', 'Lindenweg 5'],
      price: ['25 Euro', '49,90 Euro im Monat'],
      generic: ['die Standardoption', 'nur nach Vereinbarung', 'das blaue Modell'],
    },
    ramble: [
      'Wissen Sie, es war eine sehr anstrengende Woche hier.',
      'Normalerweise kümmert sich meine Kollegin darum, aber sie ist heute nicht da.',
      'Die Lieferung heute Morgen kam zu spät, da hat sich alles verschoben.',
      'Das Telefon klingelt den ganzen Tag, ehrlich gesagt.',
      'Entschuldigung, ich rede zu viel, das sagt man mir oft.',
    ],
  },
  vocabulary: {
    yes: ['ja', 'jawohl', 'genau', 'klar', 'natürlich', 'sicher', 'richtig', 'stimmt', 'jep'],
    no: ['nein', 'nicht', 'nee', 'nö', 'kein', 'keine', 'niemals'],
    negatorsAfterYes: ['nicht'],
    joiners: [],
    dontKnow: ['weiß ich nicht', 'weiß ich leider nicht', 'weiß nicht', 'keine ahnung', 'nicht sicher', 'müsste ich nachsehen', 'kann ich nicht sagen'],
    interjections: ['also', 'hm', 'na ja', 'moment', 'tja'],
    leadIns: ['das ist', 'das wäre', 'es ist', 'es sind', 'das sind'],
    numberWords: [
      'null',
      'eins',
      'zwei',
      'drei',
      'vier',
      'fünf',
      'sechs',
      'sieben',
      'acht',
      'neun',
      'zehn',
      'elf',
      'zwölf',
      'dreizehn',
      'vierzehn',
      'fünfzehn',
      'sechzehn',
      'siebzehn',
      'achtzehn',
      'neunzehn',
      'zwanzig',
    ],
    decimalSeparator: ',',
    optOut: [
      'rufen sie mich nicht mehr an',
      'rufen sie mich nie wieder an',
      'rufen sie diese nummer nicht wieder an',
      'nehmen sie mich von ihrer liste',
      'auf, mich anzurufen',
      'mich nicht mehr anzurufen',
    ],
  },
};
