// French lines and answer vocabulary for the sandbox conversation.
import type { Lexicon } from './lexicon.js';

const ASK = ['Pourriez-vous me dire : {l} ?', 'Puis-je vous demander : {l} ?', 'Et pourriez-vous me préciser : {l} ?'];

export const FR: Lexicon = {
  language: 'fr',
  agent: {
    hello: "Bonjour, ici un assistant IA qui appelle de la part d'un client.",
    purpose: (objective) => `Voici l'objet de mon appel : ${objective}.`,
    background: "J'ai déjà quelques informations, ce sera donc rapide.",
    urgent: "C'est un peu urgent, je vais faire vite.",
    moment: ['Avez-vous un instant ?', 'Pourriez-vous m’aider ?', 'Est-ce un bon moment ?'],
    ask: (label, type, variant) => (type === 'boolean' ? `Question par oui ou non : ${label} ?` : ASK[variant % ASK.length].replace('{l}', label)),
    thanks: ['Merci.', 'Parfait, merci.', 'Très bien, merci.'],
    noProblem: ['Pas de problème.', "Ce n'est pas grave."],
    listening: ['Je vois.', "D'accord.", 'Ah oui.', 'Hum hum.'],
    allDone: "C'est tout ce dont j'avais besoin.",
    goodbye: 'Merci, au revoir.',
  },
  callee: {
    hello: ['Allô ?', 'Bonjour, je vous écoute.', 'Oui, bonjour ?'],
    goAhead: ['Oui, allez-y.', 'Bien sûr, je vous écoute.'],
    noted: ['D’accord, je transmettrai.', "Très bien, c'est noté."],
    bye: ['Au revoir !', 'Bonne journée, au revoir.'],
    voicemailGreeting: 'Vous êtes bien sur notre messagerie. Nous ne pouvons pas vous répondre ; veuillez laisser un message après le bip.',
    dontKnow: ['Je ne sais pas, désolé.', 'Aucune idée, désolée.', 'Je ne suis pas sûr.', 'Il faudrait que je vérifie, désolé.'],
    yes: ['Oui, tout à fait.', 'Oui.', 'Bien sûr.', 'Absolument.', "Oui, c'est exact."],
    no: ['Non, désolé.', 'Non, malheureusement.', 'Pas du tout.', 'Non, pas vraiment.'],
    number: ['Environ {n}.', '{n}.', 'À peu près {n}, je dirais.'],
    numberWithUnit: ["C'est {n} {u}.", 'Environ {n} {u}.'],
    units: { hours: 'heures', minutes: 'minutes', days: 'jours', money: 'euros', percent: 'pour cent', people: 'personnes' },
    string: ["C'est {v}.", 'Ce serait {v}.', "Alors, c'est {v}.", '{v}.'],
    values: {
      time: ['17 h', '17 h 30', '9 h', '18 h', 'midi'],
      hours: ['de 9 h à 17 h', 'de 8 h à 18 h'],
      name: ['Marie Dubois', 'Jean Martin', 'Sophie Bernard'],
      day: ['lundi', 'mardi', 'samedi'],
      address: ['12 rue de la Paix', '5 avenue Victor Hugo'],
      price: ['25 €', '49,90 € par mois'],
      generic: ["l'option standard", 'sur rendez-vous uniquement', 'le modèle bleu'],
    },
    ramble: [
      'Vous savez, la semaine a été très chargée ici.',
      "Ma collègue s'occupe d'habitude de ces questions, mais elle est absente aujourd'hui.",
      'La livraison de ce matin est arrivée en retard, alors tout a pris du retard.',
      "Le téléphone n'arrête pas de sonner, franchement.",
      'Excusez-moi, je parle beaucoup, on me le dit souvent.',
    ],
  },
  vocabulary: {
    yes: ['oui', 'ouais', 'absolument', 'exactement', 'sûr', 'certainement', 'effectivement', 'exact'],
    no: ['non', 'pas', 'jamais', 'aucunement'],
    negatorsAfterYes: ['pas'],
    joiners: [],
    dontKnow: ['sais pas', 'aucune idée', 'pas sûr', 'pas certain', 'faudrait que je vérifie', 'dois vérifier'],
    interjections: ['alors', 'euh', 'bon', 'voyons', 'eh bien', 'ah'],
    leadIns: ['il s\'agit de', 'ce serait', 'ce sera', "c'est"],
    numberWords: ['zéro', 'un', 'deux', 'trois', 'quatre', 'cinq', 'six', 'sept', 'huit', 'neuf', 'dix', 'onze', 'douze',
      'treize', 'quatorze', 'quinze', 'seize', 'dix-sept', 'dix-huit', 'dix-neuf', 'vingt'],
    decimalSeparator: ',',
  },
};
