// Dutch lines and answer vocabulary for the sandbox conversation ("één" for one, so the article "een" is no number).
import type { Lexicon } from './lexicon.js';

const ASK = ['Kunt u mij vertellen: {l}?', 'Mag ik vragen: {l}?', 'En kunt u mij vertellen: {l}?'];

export const NL: Lexicon = {
  language: 'nl',
  agent: {
    hello: 'Goedendag, u spreekt met een AI-assistent die belt namens een klant.',
    purpose: (objective) => `De reden van mijn telefoontje: ${objective}.`,
    background: 'Ik heb al wat informatie, dus het gaat snel.',
    urgent: 'Het is een beetje dringend, dus ik houd het kort.',
    moment: ['Heeft u even?', 'Kunt u mij helpen?', 'Komt het nu uit?'],
    ask: (label, type, variant) => (type === 'boolean' ? `Een ja-neevraag: ${label}?` : ASK[variant % ASK.length].replace('{l}', label)),
    thanks: ['Dank u.', 'Prima, dank u.', 'Heel goed, bedankt.'],
    noProblem: ['Geen probleem.', 'Dat geeft niet.'],
    listening: ['Ik begrijp het.', 'Aha.', 'Ja, ja.', 'O, zo.'],
    allDone: 'Dat was alles wat ik nodig had.',
    goodbye: 'Dank u wel, tot ziens.',
  },
  callee: {
    hello: ['Hallo?', 'Goedemiddag, waarmee kan ik u helpen?', 'Ja, hallo?'],
    goAhead: ['Ja, zegt u het maar.', 'Natuurlijk, waar gaat het om?'],
    noted: ['Goed, ik geef het door.', 'Prima, genoteerd.'],
    bye: ['Tot ziens!', 'Dag, nog een fijne dag.'],
    voicemailGreeting: 'U bent verbonden met onze voicemail. We kunnen nu niet opnemen; laat alstublieft een bericht achter na de toon.',
    dontKnow: ['Dat weet ik niet, sorry.', 'Geen idee, sorry.', 'Dat weet ik niet zeker.', 'Dat zou ik moeten nakijken, sorry.'],
    yes: ['Ja, klopt.', 'Ja.', 'Zeker.', 'Natuurlijk.', 'Ja, hoor.'],
    no: ['Nee, helaas niet.', 'Nee.', 'Helaas niet.', 'Nee, sorry.'],
    number: ['Ongeveer {n}.', '{n}.', "Zo'n {n}, denk ik."],
    numberWithUnit: ['Dat zijn {n} {u}.', 'Ongeveer {n} {u}.'],
    units: { hours: 'uur', minutes: 'minuten', days: 'dagen', money: 'euro', percent: 'procent', people: 'personen' },
    string: ['Dat is {v}.', 'Dat wordt {v}.', 'Nou, dat is {v}.', '{v}.'],
    values: {
      time: ['17.00 uur', '17.30 uur', '9.00 uur', 'middag'],
      hours: ['van 9 tot 17 uur', 'van 8 tot 18 uur'],
      name: ['Sanne de Vries', 'Daan Jansen', 'Emma Bakker'],
      day: ['maandag', 'dinsdag', 'zaterdag'],
      address: ['Kerkstraat 12', 'Stationsweg 5'],
      price: ['25 euro', '49,95 euro per maand'],
      generic: ['de standaardoptie', 'alleen op afspraak', 'het blauwe model'],
    },
    ramble: [
      'Weet u, het is hier een erg drukke week geweest.',
      'Meestal regelt mijn collega dit soort dingen, maar zij is er vandaag niet.',
      'De levering van vanochtend kwam te laat, dus alles liep uit.',
      'De telefoon staat de hele dag roodgloeiend, eerlijk gezegd.',
      'Sorry, ik praat te veel, dat zeggen ze altijd.',
    ],
  },
  vocabulary: {
    yes: ['ja', 'klopt', 'zeker', 'natuurlijk', 'jazeker', 'inderdaad', 'jawel'],
    no: ['nee', 'niet', 'geen', 'nooit'],
    negatorsAfterYes: ['niet'],
    joiners: [],
    dontKnow: ['weet ik niet', 'weet het niet', 'geen idee', 'niet zeker', 'moeten nakijken'],
    interjections: ['even kijken', 'nou', 'eh', 'tja', 'goed'],
    leadIns: ['dat zou zijn', 'dat is', 'dat wordt', 'het is', 'dat zijn'],
    numberWords: ['nul', 'één', 'twee', 'drie', 'vier', 'vijf', 'zes', 'zeven', 'acht', 'negen', 'tien', 'elf', 'twaalf',
      'dertien', 'veertien', 'vijftien', 'zestien', 'zeventien', 'achttien', 'negentien', 'twintig'],
    decimalSeparator: ',',
  },
};
