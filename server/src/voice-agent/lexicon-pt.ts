// Portuguese lines and answer vocabulary for the sandbox conversation (European forms, understood in Brazil).
import type { Lexicon } from './lexicon.js';

const ASK = ['Pode dizer-me: {l}?', 'Posso perguntar: {l}?', 'E pode dizer-me: {l}?'];

export const PT: Lexicon = {
  language: 'pt',
  agent: {
    hello: 'Olá, fala um assistente de IA em nome de um cliente.',
    purpose: (objective) => `O motivo da minha chamada: ${objective}.`,
    background: 'Já tenho algumas informações, por isso vai ser rápido.',
    urgent: 'É um pouco urgente, por isso vou ser breve.',
    moment: ['Tem um momento?', 'Poderia ajudar?', 'É um bom momento?'],
    ask: (label, type, variant) => (type === 'boolean' ? `Uma pergunta de sim ou não: ${label}?` : ASK[variant % ASK.length].replace('{l}', label)),
    thanks: ['Obrigado.', 'Perfeito, obrigado.', 'Muito bem, obrigado.'],
    noProblem: ['Não faz mal.', 'Sem problema.'],
    listening: ['Entendo.', 'Ah, sim.', 'Pois.', 'Hum.'],
    allDone: 'Era tudo o que precisava.',
    goodbye: 'Obrigado, adeus.',
  },
  callee: {
    hello: ['Estou?', 'Olá, em que posso ajudar?', 'Sim, diga?'],
    goAhead: ['Claro, diga.', 'Sim, pode perguntar.'],
    noted: ['Está bem, vou passar a mensagem.', 'Certo, anotado.'],
    bye: ['Adeus!', 'Tchau, bom dia.'],
    voicemailGreeting: 'Você ligou para a nossa caixa postal. Não podemos atender agora; por favor, deixe uma mensagem após o sinal.',
    dontKnow: ['Não sei, desculpe.', 'Não faço ideia.', 'Não tenho a certeza.', 'Teria de verificar, desculpe.'],
    yes: ['Sim, é isso.', 'Sim.', 'Claro que sim.', 'Com certeza.', 'Exatamente.'],
    no: ['Não, desculpe.', 'Não.', 'Infelizmente não.', 'Claro que não.'],
    number: ['Cerca de {n}.', '{n}.', 'Mais ou menos {n}, diria eu.'],
    numberWithUnit: ['São {n} {u}.', 'Cerca de {n} {u}.'],
    units: { hours: 'horas', minutes: 'minutos', days: 'dias', money: 'euros', percent: 'por cento', people: 'pessoas' },
    string: ['É {v}.', 'Seria {v}.', 'Então, é {v}.', '{v}.'],
    values: {
      time: ['17h', '17h30', '9h', 'meio-dia'],
      hours: ['das 9h às 17h', 'das 8h às 18h'],
      name: ['Ana Silva', 'João Santos', 'Mariana Costa'],
      day: ['segunda-feira', 'terça-feira', 'sábado'],
      address: ['Rua Augusta 12', 'Avenida da Liberdade 5'],
      price: ['25 euros', '49,90 euros por mês'],
      generic: ['a opção normal', 'só com marcação', 'o modelo azul'],
    },
    ramble: [
      'Olhe, esta semana tem sido muito complicada por aqui.',
      'Normalmente é a minha colega que trata disso, mas hoje não está.',
      'A entrega desta manhã chegou atrasada e atrasou tudo.',
      'O telefone não pára de tocar, a sério.',
      'Desculpe, falo muito, dizem-me sempre isso.',
    ],
  },
  vocabulary: {
    yes: ['sim', 'claro', 'exatamente', 'certeza', 'certo', 'correto'],
    no: ['não', 'nunca', 'nada'],
    negatorsAfterYes: ['não'],
    joiners: ['que'],
    dontKnow: ['não sei', 'não faço ideia', 'não tenho a certeza', 'não tenho certeza', 'teria de verificar', 'teria que verificar'],
    interjections: ['então', 'bem', 'olhe', 'pois', 'hum'],
    leadIns: ['seria', 'são', 'é'],
    numberWords: ['zero', 'um', 'dois', 'três', 'quatro', 'cinco', 'seis', 'sete', 'oito', 'nove', 'dez', 'onze', 'doze',
      'treze', 'catorze', 'quinze', 'dezasseis', 'dezassete', 'dezoito', 'dezanove', 'vinte'],
    decimalSeparator: ',',
  },
};
