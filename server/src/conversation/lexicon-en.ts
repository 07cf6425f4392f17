// English lines and answer vocabulary for the sandbox conversation.
import { lowerFirst } from './field-label.js';
import type { Lexicon } from './lexicon.js';
import type { ObjectiveWords } from './objective.js';

/** Labels that already read as a noun phrase or an indirect question take no article. */
const NO_ARTICLE = /^(the|a|an|any|your|their|its|our|whether|if|how|what|when|where|which|who|whom|whose|why)\b/i;
const WH_LEAD = /^(whether|if|how|what|when|where|which|who|whom|whose|why)\b/i;
/** A label that is already a direct question ("is the shop open on Sundays"). */
const AUX_LEAD = /^(is|are|was|were|do|does|did|can|could|will|would|has|have|should|may)\s+(the|a|an|any|there|it|this|that|your|their|its|our|they|you|we)\b/i;
const ASK = ['Could you tell me {p}?', 'May I ask {p}?', 'And could you tell me {p}?', 'What about {p}?'];
const DAYS = /\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?\b/gi;
/** Words after which a day needs no "on". */
const BEFORE_DAY = /\b(on|at|by|until|till|from|every|this|next|last|per|each|and|or|to)\s+$/i;
/** Verbs a yes-or-no field's name starts with, as the callee would do them ("accepts cards" → "Do you accept cards?"). */
const DO_VERBS =
  /^(accepts?|offers?|sells?|delivers?|takes?|ships?|allows?|provides?|supports?|serves?|needs?|wants?|uses?|requires?|opens?|closes?|works?|includes?|stocks?|repairs?|installs?|charges?)\b\s*(.*)$/i;
const STATES = /^(.+?)\s+(available|allowed|required|included|needed|possible|accepted|free|open|closed|accessible|welcome|necessary)$/i;
/** A finite verb inside a description makes it a clause ("the shop delivers to Leeds"), asked with "whether". */
const FINITE = /\b(is|are|was|were|has|have|does|do|can|will|delivers|opens|closes|accepts|offers|takes|ships|allows|sells|serves|provides|works|includes|needs)\b/i;

/** Day names capitalised, with "on" before one that follows a word ("closing time sunday" → "closing time on Sunday"). */
function withDays(label: string): string {
  return label.replace(DAYS, (day, _name, offset: number, whole: string) => {
    const cased = day[0].toUpperCase() + day.slice(1).toLowerCase();
    const before = whole.slice(0, offset);
    return before.trim() === '' || BEFORE_DAY.test(before) ? cased : `on ${cased}`;
  });
}

/** A yes-or-no field asked as a person would: "open sunday" → "Are you open on Sunday?". */
function yesNo(l: string): string {
  let m: RegExpExecArray | null;
  if ((m = /^(is|are)\s+(.+)$/i.exec(l))) return `Are you ${m[2]}?`;
  if ((m = /^(has|have)\s+(.+)$/i.exec(l))) return `Do you have ${m[2]}?`;
  if ((m = /^(can|could)\s+(.+)$/i.exec(l))) return `Can you ${m[2]}?`;
  if ((m = /^(does|do)\s+(.+)$/i.exec(l))) return `Do you ${m[2]}?`;
  if ((m = /^(will|would)\s+(.+)$/i.exec(l))) return `Will you ${m[2]}?`;
  if (/^(open|closed)\b/i.test(l)) return `Are you ${l}?`;
  if ((m = DO_VERBS.exec(l))) return `Do you ${m[1].replace(/s$/i, '').toLowerCase()}${m[2] ? ` ${m[2]}` : ''}?`;
  if ((m = STATES.exec(l))) return `Is ${m[1]} ${m[2]}?`;
  if (FINITE.test(l)) return `Could you tell me whether ${l}?`;
  return `Do you have ${l}?`;
}

function ask(label: string, type: string, variant: number): string {
  const l = lowerFirst(withDays(label));
  if (AUX_LEAD.test(l)) return `${l[0].toUpperCase()}${l.slice(1)}?`;
  if (type === 'boolean' && !WH_LEAD.test(l)) return yesNo(l);
  const phrase = NO_ARTICLE.test(l) ? l : `the ${l}`;
  return ASK[variant % ASK.length].replace('{p}', phrase);
}

/** Verbs an objective written as an instruction starts with. */
const ACTION =
  /^(ask|find out|check|double-check|confirm|verify|book|schedule|reschedule|cancel|remind|tell|inform|let|get|collect|gather|learn|request|arrange|make|order|see|offer|invite|follow up|update|discuss|notify|reach|speak|talk|introduce|survey|obtain|understand|determine|establish|clarify|inquire|enquire|reserve|renew|set up|sign up|thank|apologi[sz]e|share|explain|pass on|leave|give|query|review|pitch|promote|sell|recruit|welcome|congratulate|wish|say)\b/i;
/** Who the client's words call the callee, turned to "you". */
const THIRD_PERSON: [RegExp, string][] = [
  [/\b(the callee|the recipient|the person you call|the person you are calling)\b/gi, 'you'],
  [/\bthey're\b/gi, "you're"],
  [/\bthey've\b/gi, "you've"],
  [/\bthey'll\b/gi, "you'll"],
  [/\bthemselves\b/gi, 'yourself'],
  [/\bthey\b/gi, 'you'],
  [/\bthem\b/gi, 'you'],
  [/\btheirs\b/gi, 'yours'],
  [/\btheir\b/gi, 'your'],
];

const OBJECTIVE: ObjectiveWords = {
  isAction: (o) => /^to\s/i.test(o) || ACTION.test(o),
  action: (o) => withDays(lowerFirst(o.replace(/^to\s+/i, ''))),
  callingTo: (action) => `I'm calling to ${action}.`,
  callingAbout: (topic) => `I'm calling about ${withDays(lowerFirst(topic))}.`,
  asks: /^(?:to\s+)?(?:ask(?:\s+(?!whether|if|what|when|where|which|who|whom|whose|why|how)[\w'-]+){0,3}|find out|check|double-check|inquire|enquire|learn|see|confirm|verify)\s+(whether|if|what|when|where|which|who|whom|whose|why|how)\b(.*)$/i,
  yesNo: /^(whether|if)$/i,
  question: (q) => `I have a quick question: could you tell me ${q}?`,
  confirm: "Could you confirm you've got that?",
  toCallee: (text) => THIRD_PERSON.reduce((t, [re, you]) => t.replace(re, you), text),
};

export const EN: Lexicon = {
  language: 'en',
  agent: {
    hello: 'Hello, this is an AI assistant calling on behalf of a client.',
    objective: OBJECTIVE,
    background: 'I already have some background, so this should be quick.',
    urgent: "It's a little time-sensitive, so I'll keep it brief.",
    moment: ['Do you have a moment?', 'Would you be able to help me?', 'Is now a good time?'],
    ask,
    thanks: ['Thank you.', 'Great, thanks.', 'Perfect, thank you.', 'Got it, thanks.'],
    noProblem: ['No problem.', "That's alright.", 'Okay, no worries.'],
    listening: ['Mm-hm.', 'I see.', 'Right.', 'Oh, I see.', 'Okay.'],
    allDone: "That's all I needed.",
    goodbye: 'Thank you, goodbye.',
    optOutAck: "I understand, and I'm sorry to have bothered you. We won't call you again. Goodbye.",
    declineTransfer: "I'm sorry, I can't put you through to a person on this call, but I'm happy to help you myself.",
    transferring: "Of course. I'm transferring you to a colleague now; please stay on the line.",
    holdForTransfer: 'Of course. Please hold for a moment while I reach someone.',
    connecting: "Thank you for holding. I have someone on the line for you now, so I'm connecting you.",
    transferFailed: "I'm sorry, nobody is available to take your call right now.",
    briefing: (objective) => `Hello, this is an AI assistant calling on behalf of a client. I have someone on the line who would like to speak to a person. The reason for my call: ${objective}.`,
    takeCallPrompt: 'Press 1 to take the call.',
    nobodyTook: "I'm sorry, nobody could take your call. Goodbye.",
    toolAnswer: (answer) => `I've just checked: ${answer}`,
    followUp: "I don't have that in front of me, I'm afraid; I'll find out and follow up with you.",
  },
  callee: {
    hello: ['Hello?', 'Hi, how can I help you?', 'Good afternoon, how can I help?', 'Hello, front desk.'],
    goAhead: ['Sure, go ahead.', 'Of course, what do you need?', 'Yes, how can I help?'],
    noted: ["Okay, I'll pass that on.", 'Sure, noted.', 'Alright, thanks for letting me know.'],
    bye: ['Goodbye!', 'Bye, have a nice day.', "You're welcome, bye."],
    optOut: ["Please don't call me again.", "Take me off your list, please. Don't call this number again.", "I'm not interested. Please stop calling me."],
    asksForPerson: ['Could I speak to a real person, please?', "I'd rather talk to a person, if that's possible.", 'Can you put me through to someone, please?'],
    willHold: ["Sure, I'll hold.", 'Okay, I can wait.', "No problem, I'll wait."],
    thankYou: ['Thank you.', 'Great, thanks.', 'Thanks a lot.'],
    question: ['Before you go on, could you tell me where my order is?', 'Quick question first: when will my order arrive?'],
    answered: ['Oh, good to know, thanks.', 'Great, thank you.'],
    voicemailGreeting: 'You have reached our voicemail. We cannot take your call right now; please leave a message after the tone.',
    dontKnow: ["I'm sorry, I don't know.", "I'm not sure, I'm afraid.", 'No idea, sorry.', "I couldn't tell you, I'm afraid.", "I'd have to check, sorry."],
    yes: ['Yes, we are.', 'Yep.', "Yeah, that's right.", 'Yes, we do.', 'Absolutely.', 'Sure, we do.'],
    no: ["No, I'm afraid not.", 'Nope, sorry.', "No, we don't.", 'Unfortunately not.', 'Not at the moment, no.'],
    number: ['About {n}.', '{n}.', "Around {n}, I'd say.", 'Let me think... {n}.'],
    numberWithUnit: ["It's {n} {u}.", 'About {n} {u}.', 'Roughly {n} {u}, I think.'],
    units: { hours: 'hours', minutes: 'minutes', days: 'days', money: 'dollars', percent: 'percent', people: 'people' },
    string: ["It's {v}.", 'That would be {v}.', "Let me see... it's {v}.", '{v}.', "Sure, it's {v}."],
    values: {
      time: ['5 pm', '5:30 pm', '6 pm', '9 am', '10:30 am', '8 pm', 'noon', 'midnight'],
      hours: ['9 am to 5 pm', '8 am to 6 pm', '10 am to 4 pm'],
      name: ['Sarah Cohen', 'David Miller', 'Maria Garcia', "James O'Brien", 'Priya Patel'],
      day: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'],
      date: ['March 3rd', 'June 14th', 'the 21st of October'],
      email: ['info@example.com', 'bookings@example.org', 'hello@example.net'],
      phone: ['+1 555 0142', '020 7946 0958', '555-0199'],
      address: ['12 Market Street', '45 Oak Avenue', '221B Baker Street'],
      price: ['$25', '$49.99 a month', '$120 per night'],
      url: ['example.com', 'www.example.org'],
      generic: ['the standard option', 'by appointment only', 'the blue one', 'Express delivery', 'Online only', 'the second floor'],
    },
    ramble: [
      "You know, it's been a very busy week around here.",
      "My colleague usually handles these things, but she's out today.",
      'We had a delivery this morning that came late, which threw everything off.',
      'The phones have been ringing all day, honestly.',
      "I've been meaning to sort out the back office, but there's never enough time.",
      'Oh, and the weather has been keeping people away, which is a shame.',
      'Sorry, I do go on a bit, my manager always says so.',
    ],
  },
  vocabulary: {
    yes: ['yes', 'yep', 'yeah', 'yup', 'sure', 'absolutely', 'definitely', 'certainly', 'correct', 'indeed', 'right'],
    no: ['no', 'nope', 'nah', 'not', 'never', "don't", "doesn't", "isn't", "aren't", "can't", 'cannot', "won't"],
    negatorsAfterYes: ['not'],
    joiners: [],
    dontKnow: ["don't know", 'do not know', 'not sure', 'no idea', "couldn't tell you", "can't say", 'cannot say', 'have to check', 'not certain', 'no clue', 'unsure'],
    interjections: ['let me see', 'let me check', 'let me think', 'sure', 'well', 'ok', 'okay', 'oh', 'um', 'uh', 'hmm', 'so'],
    leadIns: ['that would be', "that'd be", 'it would be', "i think it's", "i believe it's", 'we close at', 'we open at', 'the answer is', "it's", 'it is', "that's", 'that is'],
    numberWords: [
      'zero',
      'one',
      'two',
      'three',
      'four',
      'five',
      'six',
      'seven',
      'eight',
      'nine',
      'ten',
      'eleven',
      'twelve',
      'thirteen',
      'fourteen',
      'fifteen',
      'sixteen',
      'seventeen',
      'eighteen',
      'nineteen',
      'twenty',
    ],
    decimalSeparator: '.',
    optOut: [
      "don't call me again",
      'do not call me again',
      "don't call this number",
      'do not call this number',
      'stop calling',
      'take me off your list',
      'remove me from your list',
      'remove my number',
      'never call me',
      "don't ever call",
      'do not call list',
      'do-not-call list',
    ],
  },
};
