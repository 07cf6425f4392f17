// Italian lines and answer vocabulary for the sandbox conversation.
import type { Lexicon } from './lexicon.js';

const ASK = ['Potrebbe dirmi: {l}?', 'Posso chiederle: {l}?', 'E potrebbe dirmi: {l}?'];

export const IT: Lexicon = {
  language: 'it',
  agent: {
    hello: 'Buongiorno, sono un assistente IA e chiamo per conto di un cliente.',
    purpose: (objective) => `Il motivo della mia chiamata: ${objective}.`,
    background: 'Ho già qualche informazione, quindi ci vorrà poco.',
    urgent: "È un po' urgente, quindi sarò breve.",
    moment: ['Ha un momento?', 'Potrebbe aiutarmi?', 'È un buon momento?'],
    ask: (label, type, variant) => (type === 'boolean' ? `Una domanda sì o no: ${label}?` : ASK[variant % ASK.length].replace('{l}', label)),
    thanks: ['Grazie.', 'Perfetto, grazie.', 'Benissimo, grazie.'],
    noProblem: ['Nessun problema.', 'Non si preoccupi.'],
    listening: ['Capisco.', 'Ah, sì.', 'Davvero.', 'Mm-hm.'],
    allDone: 'È tutto quello che mi serviva.',
    goodbye: 'Grazie, arrivederci.',
  },
  callee: {
    hello: ['Pronto?', 'Buongiorno, mi dica.', 'Sì, pronto?'],
    goAhead: ['Certo, mi dica.', 'Sì, prego.'],
    noted: ['Va bene, lo riferirò.', "D'accordo, ne prendo nota."],
    bye: ['Arrivederci!', 'Buona giornata, arrivederci.'],
    voicemailGreeting: 'Ha raggiunto la nostra segreteria. Non possiamo rispondere; la preghiamo di lasciare un messaggio dopo il segnale acustico.',
    dontKnow: ['Non lo so, mi dispiace.', 'Non ne ho idea, scusi.', 'Non sono sicura.', 'Dovrei controllare, mi scusi.'],
    yes: ['Sì, esatto.', 'Sì.', 'Certo.', 'Assolutamente sì.', 'Sì, certamente.'],
    no: ['No, mi dispiace.', 'No.', 'Purtroppo no.', 'Assolutamente no.'],
    number: ['Circa {n}.', '{n}.', 'Più o meno {n}, direi.'],
    numberWithUnit: ['Sono {n} {u}.', 'Circa {n} {u}.'],
    units: { hours: 'ore', minutes: 'minuti', days: 'giorni', money: 'euro', percent: 'per cento', people: 'persone' },
    string: ['Sarebbe {v}.', 'Allora, sarebbe {v}.', 'Direi {v}.', '{v}.'],
    values: {
      time: ['17:00', '17:30', '9:00', 'mezzogiorno'],
      hours: ['dalle 9 alle 17', 'dalle 8 alle 18'],
      name: ['Giulia Rossi', 'Marco Bianchi', 'Chiara Romano'],
      day: ['lunedì', 'martedì', 'sabato'],
      address: ['Via Roma 12', 'Corso Italia 5'],
      price: ['25 euro', '49,90 euro al mese'],
      generic: ["l'opzione standard", 'solo su appuntamento', 'il modello blu'],
    },
    ramble: [
      'Guardi, è stata una settimana molto impegnativa qui.',
      'Di solito se ne occupa la mia collega, ma oggi non c’è.',
      'La consegna di stamattina è arrivata in ritardo e siamo rimasti indietro con tutto.',
      'Il telefono non smette di squillare, davvero.',
      'Mi scusi, parlo tanto, me lo dicono sempre.',
    ],
  },
  vocabulary: {
    yes: ['sì', 'si', 'certo', 'esatto', 'esattamente', 'assolutamente', 'certamente', 'giusto'],
    no: ['no', 'non', 'mai'],
    negatorsAfterYes: ['no', 'non'],
    joiners: [],
    dontKnow: ['non lo so', 'non so', 'non ne ho idea', 'nessuna idea', 'non sono sicur', 'dovrei controllare'],
    interjections: ['allora', 'dunque', 'ecco', 'beh', 'mah', 'vediamo'],
    leadIns: ['sarebbero', 'sarebbe', 'direi', 'è', 'sono'],
    numberWords: ['zero', 'uno', 'due', 'tre', 'quattro', 'cinque', 'sei', 'sette', 'otto', 'nove', 'dieci', 'undici', 'dodici',
      'tredici', 'quattordici', 'quindici', 'sedici', 'diciassette', 'diciotto', 'diciannove', 'venti'],
    decimalSeparator: ',',
  },
};
