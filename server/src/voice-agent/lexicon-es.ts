// Spanish lines and answer vocabulary for the sandbox conversation.
import type { Lexicon } from './lexicon.js';

const ASK = ['¿Podría decirme: {l}?', '¿Me puede indicar: {l}?', '¿Y podría decirme: {l}?'];

export const ES: Lexicon = {
  language: 'es',
  agent: {
    hello: 'Hola, le llama un asistente de IA en nombre de un cliente.',
    purpose: (objective) => `El motivo de mi llamada: ${objective}.`,
    background: 'Ya tengo algunos datos, así que será rápido.',
    urgent: 'Es algo urgente, así que seré breve.',
    moment: ['¿Tiene un momento?', '¿Me podría ayudar?', '¿Es buen momento?'],
    ask: (label, type, variant) => (type === 'boolean' ? `Una pregunta de sí o no: ¿${label}?` : ASK[variant % ASK.length].replace('{l}', label)),
    thanks: ['Gracias.', 'Perfecto, gracias.', 'Muy bien, gracias.'],
    noProblem: ['No pasa nada.', 'No se preocupe.'],
    listening: ['Ya veo.', 'Claro.', 'Vaya.', 'Ajá.'],
    allDone: 'Eso es todo lo que necesitaba.',
    goodbye: 'Gracias, adiós.',
  },
  callee: {
    hello: ['¿Diga?', 'Hola, ¿en qué puedo ayudarle?', '¿Sí, dígame?'],
    goAhead: ['Claro, adelante.', 'Sí, dígame.'],
    noted: ['De acuerdo, lo transmitiré.', 'Vale, tomo nota.'],
    bye: ['¡Adiós!', 'Adiós, que tenga un buen día.'],
    voicemailGreeting: 'Ha llamado a nuestro buzón de voz. No podemos atenderle; por favor, deje un mensaje después de la señal.',
    dontKnow: ['No lo sé, lo siento.', 'Ni idea, perdone.', 'No estoy seguro.', 'Tendría que comprobarlo, lo siento.'],
    yes: ['Sí, así es.', 'Sí.', 'Claro que sí.', 'Por supuesto.', 'Sí, correcto.'],
    no: ['No, lo siento.', 'No, por desgracia.', 'Para nada.', 'Claro que no.'],
    number: ['Unos {n}.', '{n}.', 'Más o menos {n}, diría yo.'],
    numberWithUnit: ['Son {n} {u}.', 'Unos {n} {u}.'],
    units: { hours: 'horas', minutes: 'minutos', days: 'días', money: 'euros', percent: 'por ciento', people: 'personas' },
    string: ['Sería {v}.', 'Bueno, sería {v}.', 'A ver... {v}.', '{v}.'],
    values: {
      time: ['las 5 de la tarde', 'las 17:30', 'las 9 de la mañana', 'mediodía'],
      hours: ['de 9 a 17 h', 'de 8 a 18 h'],
      name: ['María García', 'Javier López', 'Lucía Fernández'],
      day: ['el lunes', 'el martes', 'el sábado'],
      address: ['Calle Mayor 12', 'Avenida de la Paz 5'],
      price: ['25 €', '49,90 € al mes'],
      generic: ['la opción estándar', 'solo con cita previa', 'el modelo azul'],
    },
    ramble: [
      'Mire, ha sido una semana muy complicada por aquí.',
      'Normalmente mi compañera se encarga de estas cosas, pero hoy no está.',
      'El reparto de esta mañana llegó tarde y se nos ha retrasado todo.',
      'El teléfono no ha parado de sonar en todo el día.',
      'Perdone, es que hablo mucho, siempre me lo dicen.',
    ],
  },
  vocabulary: {
    yes: ['sí', 'si', 'claro', 'exacto', 'correcto', 'supuesto', 'efectivamente', 'cierto'],
    no: ['no', 'nada', 'nunca', 'tampoco'],
    negatorsAfterYes: ['no'],
    joiners: ['que'],
    dontKnow: ['no lo sé', 'no sé', 'ni idea', 'no estoy seguro', 'no estoy segura', 'tendría que comprobar'],
    interjections: ['a ver', 'bueno', 'pues', 'vale', 'mmm'],
    leadIns: ['serían', 'sería', 'son', 'es'],
    numberWords: ['cero', 'uno', 'dos', 'tres', 'cuatro', 'cinco', 'seis', 'siete', 'ocho', 'nueve', 'diez', 'once', 'doce',
      'trece', 'catorce', 'quince', 'dieciséis', 'diecisiete', 'dieciocho', 'diecinueve', 'veinte'],
    decimalSeparator: ',',
  },
};
