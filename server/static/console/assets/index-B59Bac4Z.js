(function(){let e=document.createElement(`link`).relList;if(e&&e.supports&&e.supports(`modulepreload`))return;for(let e of document.querySelectorAll(`link[rel="modulepreload"]`))n(e);new MutationObserver(e=>{for(let t of e)if(t.type===`childList`)for(let e of t.addedNodes)e.tagName===`LINK`&&e.rel===`modulepreload`&&n(e)}).observe(document,{childList:!0,subtree:!0});function t(e){let t={};return e.integrity&&(t.integrity=e.integrity),e.referrerPolicy&&(t.referrerPolicy=e.referrerPolicy),t.credentials=e.crossOrigin===`use-credentials`?`include`:e.crossOrigin===`anonymous`?`omit`:`same-origin`,t}function n(e){if(e.ep)return;e.ep=!0;let n=t(e);fetch(e.href,n)}})();var e,t,n,r,i,a,o,s,c,l,u,d,f,p,m={},h=[],g=/acit|ex(?:s|g|n|p|$)|rph|grid|ows|mnc|ntw|ine[ch]|zoo|^ord|itera/i,_=Array.isArray;function v(e,t){for(var n in t)e[n]=t[n];return e}function y(e){e&&e.parentNode&&e.parentNode.removeChild(e)}function b(t,n,r){var i,a,o,s={};for(o in n)o==`key`?i=n[o]:o==`ref`?a=n[o]:s[o]=n[o];if(arguments.length>2&&(s.children=arguments.length>3?e.call(arguments,2):r),typeof t==`function`&&t.defaultProps!=null)for(o in t.defaultProps)s[o]===void 0&&(s[o]=t.defaultProps[o]);return x(t,s,i,a,null)}function x(e,r,i,a,o){var s={type:e,props:r,key:i,ref:a,__k:null,__:null,__b:0,__e:null,__c:null,constructor:void 0,__v:o??++n,__i:-1,__u:0};return o==null&&t.vnode!=null&&t.vnode(s),s}function S(e){return e.children}function C(e,t){this.props=e,this.context=t}function w(e,t){if(t==null)return e.__?w(e.__,e.__i+1):null;for(var n;t<e.__k.length;t++)if((n=e.__k[t])!=null&&n.__e!=null)return n.__e;return typeof e.type==`function`?w(e):null}function ee(e){if(e.__P&&e.__d){var n=e.__v,r=n.__e,i=[],a=[],o=v({},n);o.__v=n.__v+1,t.vnode&&t.vnode(o),re(e.__P,o,n,e.__n,e.__P.namespaceURI,32&n.__u?[r]:null,i,r??w(n),!!(32&n.__u),a),o.__v=n.__v,o.__.__k[o.__i]=o,ae(i,o,a),n.__e=n.__=null,o.__e!=r&&T(o)}}function T(e){if((e=e.__)!=null&&e.__c!=null)return e.__e=e.__c.base=null,e.__k.some(function(t){if(t!=null&&t.__e!=null)return e.__e=e.__c.base=t.__e}),T(e)}function E(e){(!e.__d&&(e.__d=!0)&&r.push(e)&&!D.__r++||i!=t.debounceRendering)&&((i=t.debounceRendering)||a)(D)}function D(){try{for(var e,t=1;r.length;)r.length>t&&r.sort(o),e=r.shift(),t=r.length,ee(e)}finally{r.length=D.__r=0}}function te(e,t,n,r,i,a,o,s,c,l,u){var d,f,p,g,_,v,y=r&&r.__k||h,b=t.length;for(c=O(n,t,y,c,b),d=0;d<b;d++)(p=n.__k[d])!=null&&(f=p.__i!=-1&&y[p.__i]||m,p.__i=d,v=re(e,p,f,i,a,o,s,c,l,u),g=p.__e,p.ref&&f.ref!=p.ref&&(f.ref&&ce(f.ref,null,p),u.push(p.ref,p.__c||g,p)),_==null&&g!=null&&(_=g),4&p.__u?(c=k(p,c,e),f.__e&&(f.__e=null)):typeof p.type==`function`&&v!==void 0?c=v:g&&(c=g.nextSibling),p.__u&=-7);return n.__e=_,c}function O(e,t,n,r,i){var a,o,s,c,l,u=n.length,d=u,f=0;for(e.__k=Array(i),a=0;a<i;a++)(o=t[a])!=null&&typeof o!=`boolean`&&typeof o!=`function`?(typeof o==`string`||typeof o==`number`||typeof o==`bigint`||o.constructor==String?o=e.__k[a]=x(null,o,null,null,null):_(o)?o=e.__k[a]=x(S,{children:o},null,null,null):o.constructor===void 0&&o.__b>0?o=e.__k[a]=x(o.type,o.props,o.key,o.ref?o.ref:null,o.__v):e.__k[a]=o,c=a+f,o.__=e,o.__b=e.__b+1,s=null,(l=o.__i=ne(o,n,c,d))!=-1&&(d--,(s=n[l])&&(s.__u|=2)),s==null||s.__v==null?(l==-1&&(i>u?f--:i<u&&f++),typeof o.type!=`function`&&(o.__u|=4)):l!=c&&(l==c-1?f--:l==c+1?f++:(l>c?f--:f++,o.__u|=4))):e.__k[a]=null;if(d)for(a=0;a<u;a++)(s=n[a])!=null&&!(2&s.__u)&&(s.__e==r&&(r=w(s)),le(s,s));return r}function k(e,t,n){var r,i;if(typeof e.type==`function`){for(r=e.__k,i=0;r&&i<r.length;i++)r[i]&&(r[i].__=e,t=k(r[i],t,n));return t}e.__e!=t&&(t&&e.type&&!t.parentNode&&(t=w(e)),t=n.insertBefore(e.__e,t||null));do t&&=t.nextSibling;while(t!=null&&t.nodeType==8);return t}function ne(e,t,n,r){var i,a,o,s=e.key,c=e.type,l=t[n],u=l!=null&&!(2&l.__u);if(l===null&&s==null||u&&s==l.key&&c==l.type)return n;if(r>+!!u){for(i=n-1,a=n+1;i>=0||a<t.length;)if((l=t[o=i>=0?i--:a++])!=null&&!(2&l.__u)&&s==l.key&&c==l.type)return o}return-1}function A(e,t,n){t[0]==`-`?e.setProperty(t,n??``):e[t]=n==null?``:typeof n!=`number`||g.test(t)?n:n+`px`}function j(e,t,n,r,i){var a,o;n:if(t==`style`){if(typeof n==`string`)e.style.cssText=n;else{if(typeof r==`string`&&(e.style.cssText=r=``),r)for(t in r)n&&t in n||A(e.style,t,``);if(n)for(t in n)r&&n[t]==r[t]||A(e.style,t,n[t])}}else if(t[0]==`o`&&t[1]==`n`)a=t!=(t=t.replace(u,`$1`)),o=t.toLowerCase(),t=o in e||t==`onFocusOut`||t==`onFocusIn`?o.slice(2):t.slice(2),e.l||={},e.l[t+a]=n,n?r?n[l]=r[l]:(n[l]=d,e.addEventListener(t,a?p:f,a)):e.removeEventListener(t,a?p:f,a);else{if(i==`http://www.w3.org/2000/svg`)t=t.replace(/xlink(H|:h)/,`h`).replace(/sName$/,`s`);else if(t!=`width`&&t!=`height`&&t!=`href`&&t!=`list`&&t!=`form`&&t!=`tabIndex`&&t!=`download`&&t!=`rowSpan`&&t!=`colSpan`&&t!=`role`&&t!=`popover`&&t in e)try{e[t]=n??``;break n}catch{}typeof n==`function`||(n==null||!1===n&&t[4]!=`-`?e.removeAttribute(t):e.setAttribute(t,t==`popover`&&n==1?``:n))}}function M(e){return function(n){if(this.l){var r=this.l[n.type+e];if(n[c]==null)n[c]=d++;else if(n[c]<r[l])return;return r(t.event?t.event(n):n)}}}function re(e,n,r,i,a,o,s,c,l,u){var d,f,p,m,g,b,x,ee,T,E,D,O,k,ne,A,j,M=n.type;if(n.constructor!==void 0)return null;128&r.__u&&(l=!!(32&r.__u),o=[c=n.__e=r.__e]),(d=t.__b)&&d(n);n:if(typeof M==`function`){f=s.length;try{if(T=n.props,E=M.prototype&&M.prototype.render,D=(d=M.contextType)&&i[d.__c],O=d?D?D.props.value:d.__:i,r.__c?ee=(p=n.__c=r.__c).__=p.__E:(E?n.__c=p=new M(T,O):(n.__c=p=new C(T,O),p.constructor=M,p.render=ue),D&&D.sub(p),p.state||(p.state={}),p.__n=i,m=p.__d=!0,p.__h=[],p._sb=[]),E&&p.__s==null&&(p.__s=p.state),E&&M.getDerivedStateFromProps!=null&&(p.__s==p.state&&(p.__s=v({},p.__s)),v(p.__s,M.getDerivedStateFromProps(T,p.__s))),g=p.props,b=p.state,p.__v=n,m)E&&M.getDerivedStateFromProps==null&&p.componentWillMount!=null&&p.componentWillMount(),E&&p.componentDidMount!=null&&p.__h.push(p.componentDidMount);else{if(E&&M.getDerivedStateFromProps==null&&T!==g&&p.componentWillReceiveProps!=null&&p.componentWillReceiveProps(T,O),n.__v==r.__v||!p.__e&&p.shouldComponentUpdate!=null&&!1===p.shouldComponentUpdate(T,p.__s,O)){n.__v!=r.__v&&(p.props=T,p.state=p.__s,p.__d=!1),n.__e=r.__e,n.__k=r.__k,n.__k.some(function(e){e&&(e.__=n)}),h.push.apply(p.__h,p._sb),p._sb=[],p.__h.length&&s.push(p),c=w(r);break n}p.componentWillUpdate!=null&&p.componentWillUpdate(T,p.__s,O),E&&p.componentDidUpdate!=null&&p.__h.push(function(){p.componentDidUpdate(g,b,x)})}if(p.context=O,p.props=T,p.__P=e,p.__e=!1,k=t.__r,ne=0,E)p.state=p.__s,p.__d=!1,k&&k(n),d=p.render(p.props,p.state,p.context),h.push.apply(p.__h,p._sb),p._sb=[];else do p.__d=!1,k&&k(n),d=p.render(p.props,p.state,p.context),p.state=p.__s;while(p.__d&&++ne<25);p.state=p.__s,p.getChildContext!=null&&(i=v(v({},i),p.getChildContext())),E&&!m&&p.getSnapshotBeforeUpdate!=null&&(x=p.getSnapshotBeforeUpdate(g,b)),A=d!=null&&d.type===S&&d.key==null?oe(d.props.children):d,c=te(e,_(A)?A:[A],n,r,i,a,o,s,c,l,u),p.base=n.__e,n.__u&=-161,p.__h.length&&s.push(p),ee&&(p.__E=p.__=null)}catch(e){if(s.length=f,n.__v=null,l||o!=null){if(e.then){for(n.__u|=l?160:128;c&&c.nodeType==8&&c.nextSibling;)c=c.nextSibling;o!=null&&(o[o.indexOf(c)]=null),n.__e=c}else if(o!=null)for(j=o.length;j--;)y(o[j])}else n.__e=r.__e;n.__k??=r.__k||[],e.then||ie(n),t.__e(e,n,r)}}else o==null&&n.__v==r.__v?(n.__k=r.__k,n.__e=r.__e):c=n.__e=se(r.__e,n,r,i,a,o,s,l,u);return(d=t.diffed)&&d(n),128&n.__u?void 0:c}function ie(e){e&&(e.__c&&(e.__c.__e=!0),e.__k&&e.__k.some(ie))}function ae(e,n,r){for(var i=0;i<r.length;i++)ce(r[i],r[++i],r[++i]);t.__c&&t.__c(n,e),e.some(function(n){try{e=n.__h,n.__h=[],e.some(function(e){e.call(n)})}catch(e){t.__e(e,n.__v)}})}function oe(e){return typeof e!=`object`||!e||e.__b>0?e:_(e)?e.map(oe):e.constructor===void 0?v({},e):null}function se(n,r,i,a,o,s,c,l,u){var d,f,p,h,g,v,b,x=i.props||m,S=r.props,C=r.type;if(C==`svg`?o=`http://www.w3.org/2000/svg`:C==`math`?o=`http://www.w3.org/1998/Math/MathML`:o||=`http://www.w3.org/1999/xhtml`,s!=null){for(d=0;d<s.length;d++)if((g=s[d])&&`setAttribute`in g==!!C&&(C?g.localName==C:g.nodeType==3)){n=g,s[d]=null;break}}if(n==null){if(C==null)return document.createTextNode(S);n=document.createElementNS(o,C,S.is&&S),l&&=(t.__m&&t.__m(r,s),!1),s=null}if(C==null)x===S||l&&n.data==S||(n.data=S);else{if(s=C==`textarea`&&S.defaultValue!=null?null:s&&e.call(n.childNodes),!l&&s!=null)for(x={},d=0;d<n.attributes.length;d++)x[(g=n.attributes[d]).name]=g.value;for(d in x)g=x[d],d==`dangerouslySetInnerHTML`?p=g:d==`children`||d in S||d==`value`&&`defaultValue`in S||d==`checked`&&`defaultChecked`in S||j(n,d,null,g,o);for(d in S)g=S[d],d==`children`?h=g:d==`dangerouslySetInnerHTML`?f=g:d==`value`?v=g:d==`checked`?b=g:l&&typeof g!=`function`||x[d]===g||j(n,d,g,x[d],o);if(f)l||p&&(f.__html==p.__html||f.__html==n.innerHTML)||(n.innerHTML=f.__html),r.__k=[];else if(p&&(n.innerHTML=``),te(r.type==`template`?n.content:n,_(h)?h:[h],r,i,a,C==`foreignObject`?`http://www.w3.org/1999/xhtml`:o,s,c,s?s[0]:i.__k&&w(i,0),l,u),s!=null)for(d=s.length;d--;)y(s[d]);l&&C!=`textarea`||(d=`value`,C==`progress`&&v==null?n.removeAttribute(`value`):v!=null&&(v!==n[d]||C==`progress`&&!v||C==`option`&&v!=x[d])&&j(n,d,v,x[d],o),d=`checked`,b!=null&&b!=n[d]&&j(n,d,b,x[d],o))}return n}function ce(e,n,r){try{if(typeof e==`function`){var i=typeof e.__u==`function`;i&&e.__u(),i&&n==null||(e.__u=e(n))}else e.current=n}catch(e){t.__e(e,r)}}function le(e,n,r){var i,a;if(t.unmount&&t.unmount(e),(i=e.ref)&&(i.current&&i.current!=e.__e||ce(i,null,n)),(i=e.__c)!=null){if(i.componentWillUnmount)try{i.componentWillUnmount()}catch(e){t.__e(e,n)}i.base=i.__P=i.__n=null}if(i=e.__k)for(a=0;a<i.length;a++)i[a]&&le(i[a],n,r||typeof e.type!=`function`);r||y(e.__e),e.__c=e.__=e.__e=void 0}function ue(e,t,n){return this.constructor(e,n)}function de(n,r,i){var a,o,s,c;r==document&&(r=document.documentElement),t.__&&t.__(n,r),o=(a=typeof i==`function`)?null:i&&i.__k||r.__k,s=[],c=[],re(r,n=(!a&&i||r).__k=b(S,null,[n]),o||m,m,r.namespaceURI,!a&&i?[i]:o?null:r.firstChild?e.call(r.childNodes):null,s,!a&&i?i:o?o.__e:r.firstChild,a,c),ae(s,n,c),n.props.children=null}e=h.slice,t={__e:function(e,t,n,r){for(var i,a,o;t=t.__;)if((i=t.__c)&&!i.__)try{if((a=i.constructor)&&a.getDerivedStateFromError!=null&&(i.setState(a.getDerivedStateFromError(e)),o=i.__d),i.componentDidCatch!=null&&(i.componentDidCatch(e,r||{}),o=i.__d),o)return i.__E=i}catch(t){e=t}throw e}},n=0,C.prototype.setState=function(e,t){var n=this.__s!=null&&this.__s!=this.state?this.__s:this.__s=v({},this.state);typeof e==`function`&&(e=e(v({},n),this.props)),e&&v(n,e),e!=null&&this.__v&&(t&&this._sb.push(t),E(this))},C.prototype.forceUpdate=function(e){this.__v&&(this.__e=!0,e&&this.__h.push(e),E(this))},C.prototype.render=S,r=[],a=typeof Promise==`function`?Promise.prototype.then.bind(Promise.resolve()):setTimeout,o=function(e,t){return e.__v.__b-t.__v.__b},D.__r=0,s=Math.random().toString(8),c=`__d`+s,l=`__a`+s,u=/(PointerCapture)$|Capture$/i,d=0,f=M(!1),p=M(!0);var N,P,fe,pe,F=0,me=[],I=t,he=I.__b,ge=I.__r,_e=I.diffed,ve=I.__c,ye=I.unmount,be=I.__;function xe(e,t){I.__h&&I.__h(P,e,F||t),F=0;var n=P.__H||(P.__H={__:[],__h:[]});return e>=n.__.length&&n.__.push({}),n.__[e]}function L(e){return F=1,Se(Ae,e)}function Se(e,t,n){var r=xe(N++,2);if(r.t=e,!r.__c&&(r.__=[n?n(t):Ae(void 0,t),function(e){var t=r.__N?r.__N[0]:r.__[0],n=r.t(t,e);t!==n&&(r.__N=[n,r.__[1]],r.__c.setState({}))}],r.__c=P,!P.__f)){var i=function(e,t,n){if(!r.__c.__H)return!0;var i=!1,o=r.__c.props!==e;if(r.__c.__H.__.some(function(e){if(e.__N){i=!0;var t=e.__[0];e.__=e.__N,e.__N=void 0,t!==e.__[0]&&(o=!0)}}),a){var s=a.call(this,e,t,n);return i?s||o:s}return!i||o};P.__f=!0;var a=P.shouldComponentUpdate,o=P.componentWillUpdate;P.componentWillUpdate=function(e,t,n){if(this.__e){var r=a;a=void 0,i(e,t,n),a=r}o&&o.call(this,e,t,n)},P.shouldComponentUpdate=i}return r.__N||r.__}function R(e,t){var n=xe(N++,3);!I.__s&&ke(n.__H,t)&&(n.__=e,n.u=t,P.__H.__h.push(n))}function Ce(e){return F=5,we(function(){return{current:e}},[])}function we(e,t){var n=xe(N++,7);return ke(n.__H,t)&&(n.__=e(),n.__H=t,n.__h=e),n.__}function Te(){for(var e;e=me.shift();){var t=e.__H;if(e.__P&&t)try{t.__h.some(z),t.__h.some(Oe),t.__h=[]}catch(n){t.__h=[],I.__e(n,e.__v)}}}I.__b=function(e){P=null,he&&he(e)},I.__=function(e,t){e&&t.__k&&t.__k.__m&&(e.__m=t.__k.__m),be&&be(e,t)},I.__r=function(e){ge&&ge(e),N=0;var t=(P=e.__c).__H;t&&(fe===P?(t.__h=[],P.__h=[],t.__.some(function(e){e.__N&&(e.__=e.__N),e.u=e.__N=void 0})):(t.__h.some(z),t.__h.some(Oe),t.__h=[],N=0)),fe=P},I.diffed=function(e){_e&&_e(e);var t=e.__c;t&&t.__H&&(t.__H.__h.length&&(me.push(t)!==1&&pe===I.requestAnimationFrame||((pe=I.requestAnimationFrame)||De)(Te)),t.__H.__.some(function(e){e.u&&=(e.__H=e.u,void 0)})),fe=P=null},I.__c=function(e,t){t.some(function(e){try{e.__h.some(z),e.__h=e.__h.filter(function(e){return!e.__||Oe(e)})}catch(n){t.some(function(e){e.__h&&=[]}),t=[],I.__e(n,e.__v)}}),ve&&ve(e,t)},I.unmount=function(e){ye&&ye(e);var t,n=e.__c;n&&n.__H&&(n.__H.__.some(function(e){try{z(e)}catch(e){t=e}}),n.__H=void 0,t&&I.__e(t,n.__v))};var Ee=typeof requestAnimationFrame==`function`;function De(e){var t,n=function(){clearTimeout(r),Ee&&cancelAnimationFrame(t),setTimeout(e)},r=setTimeout(n,35);Ee&&(t=requestAnimationFrame(n))}function z(e){var t=P,n=e.__c;typeof n==`function`&&(e.__c=void 0,n()),P=t}function Oe(e){var t=P;e.__c=e.__(),P=t}function ke(e,t){return!e||e.length!==t.length||t.some(function(t,n){return t!==e[n]})}function Ae(e,t){return typeof t==`function`?t(e):t}var je=function(e,t,n,r){var i;t[0]=0;for(var a=1;a<t.length;a++){var o=t[a++],s=t[a]?(t[0]|=o?1:2,n[t[a++]]):t[++a];o===3?r[0]=s:o===4?r[1]=Object.assign(r[1]||{},s):o===5?(r[1]=r[1]||{})[t[++a]]=s:o===6?r[1][t[++a]]+=s+``:o?(i=e.apply(s,je(e,s,n,[``,null])),r.push(i),s[0]?t[0]|=2:(t[a-2]=0,t[a]=i)):r.push(s)}return r},Me=new Map;function Ne(e){var t=Me.get(this);return t||(t=new Map,Me.set(this,t)),(t=je(this,t.get(e)||(t.set(e,t=function(e){for(var t,n,r=1,i=``,a=``,o=[0],s=function(e){r===1&&(e||(i=i.replace(/^\s*\n\s*|\s*\n\s*$/g,``)))?o.push(0,e,i):r===3&&(e||i)?(o.push(3,e,i),r=2):r===2&&i===`...`&&e?o.push(4,e,0):r===2&&i&&!e?o.push(5,0,!0,i):r>=5&&((i||!e&&r===5)&&(o.push(r,0,i,n),r=6),e&&(o.push(r,e,0,n),r=6)),i=``},c=0;c<e.length;c++){c&&(r===1&&s(),s(c));for(var l=0;l<e[c].length;l++)t=e[c][l],r===1?t===`<`?(s(),o=[o],r=3):i+=t:r===4?i===`--`&&t===`>`?(r=1,i=``):i=t+i[0]:a?t===a?a=``:i+=t:t===`"`||t===`'`?a=t:t===`>`?(s(),r=1):r&&(t===`=`?(r=5,n=i,i=``):t===`/`&&(r<5||e[c][l+1]===`>`)?(s(),r===3&&(o=o[0]),r=o,(o=o[0]).push(2,0,r),r=0):t===` `||t===`	`||t===`
`||t===`\r`?(s(),r=2):i+=t),r===3&&i===`!--`&&(r=4,o=o[0])}return s(),o}(e)),t),arguments,[])).length>1?t:t[0]}var B=Ne.bind(b),Pe={bodySerializer:e=>JSON.stringify(e,(e,t)=>typeof t==`bigint`?t.toString():t)};Object.entries({$body_:`body`,$headers_:`headers`,$path_:`path`,$query_:`query`});var Fe=({onRequest:e,onSseError:t,onSseEvent:n,responseTransformer:r,responseValidator:i,sseDefaultRetryDelay:a,sseMaxRetryAttempts:o,sseMaxRetryDelay:s,sseSleepFn:c,url:l,...u})=>{let d,f=c??(e=>new Promise(t=>setTimeout(t,e)));return{stream:async function*(){let c=a??3e3,p=0,m=u.signal??new AbortController().signal;for(;!m.aborted;){p++;let a=u.headers instanceof Headers?u.headers:new Headers(u.headers);d!==void 0&&a.set(`Last-Event-ID`,d);try{let t={redirect:`follow`,...u,body:u.serializedBody,headers:a,signal:m},o=new Request(l,t);e&&(o=await e(l,t));let s=await(u.fetch??globalThis.fetch)(o);if(!s.ok)throw Error(`SSE failed: ${s.status} ${s.statusText}`);if(!s.body)throw Error(`No body in SSE response`);let f=s.body.pipeThrough(new TextDecoderStream).getReader(),p=``,h=()=>{try{f.cancel()}catch{}};m.addEventListener(`abort`,h);try{for(;;){let{done:e,value:t}=await f.read();if(e)break;p+=t,p=p.replace(/\r\n/g,`
`).replace(/\r/g,`
`);let a=p.split(`

`);p=a.pop()??``;for(let e of a){let t=e.split(`
`),a=[],o;for(let e of t)if(e.startsWith(`data:`))a.push(e.replace(/^data:\s*/,``));else if(e.startsWith(`event:`))o=e.replace(/^event:\s*/,``);else if(e.startsWith(`id:`))d=e.replace(/^id:\s*/,``);else if(e.startsWith(`retry:`)){let t=Number.parseInt(e.replace(/^retry:\s*/,``),10);Number.isNaN(t)||(c=t)}let s,l=!1;if(a.length){let e=a.join(`
`);try{s=JSON.parse(e),l=!0}catch{s=e}}l&&(i&&await i(s),r&&(s=await r(s))),n?.({data:s,event:o,id:d,retry:c}),a.length&&(yield s)}}}finally{m.removeEventListener(`abort`,h),f.releaseLock()}break}catch(e){if(t?.(e),o!==void 0&&p>=o)break;let n=Math.min(c*2**(p-1),s??3e4);await f(n)}}}()}},Ie=e=>{switch(e){case`label`:return`.`;case`matrix`:return`;`;case`simple`:return`,`;default:return`&`}},Le=e=>{switch(e){case`form`:return`,`;case`pipeDelimited`:return`|`;case`spaceDelimited`:return`%20`;default:return`,`}},Re=e=>{switch(e){case`label`:return`.`;case`matrix`:return`;`;case`simple`:return`,`;default:return`&`}},ze=({allowReserved:e,explode:t,name:n,style:r,value:i})=>{if(!t){let t=(e?i:i.map(e=>encodeURIComponent(e))).join(Le(r));switch(r){case`label`:return`.${t}`;case`matrix`:return`;${n}=${t}`;case`simple`:return t;default:return`${n}=${t}`}}let a=Ie(r),o=i.map(t=>r===`label`||r===`simple`?e?t:encodeURIComponent(t):V({allowReserved:e,name:n,value:t})).join(a);return r===`label`||r===`matrix`?a+o:o},V=({allowReserved:e,name:t,value:n})=>{if(n==null)return``;if(typeof n==`object`)throw Error("Deeply-nested arrays/objects aren’t supported. Provide your own `querySerializer()` to handle these.");return`${t}=${e?n:encodeURIComponent(n)}`},Be=({allowReserved:e,explode:t,name:n,style:r,value:i,valueOnly:a})=>{if(i instanceof Date)return a?i.toISOString():`${n}=${i.toISOString()}`;if(r!==`deepObject`&&!t){let t=[];Object.entries(i).forEach(([n,r])=>{t=[...t,n,e?r:encodeURIComponent(r)]});let a=t.join(`,`);switch(r){case`form`:return`${n}=${a}`;case`label`:return`.${a}`;case`matrix`:return`;${n}=${a}`;default:return a}}let o=Re(r),s=Object.entries(i).map(([t,i])=>V({allowReserved:e,name:r===`deepObject`?`${n}[${t}]`:t,value:i})).join(o);return r===`label`||r===`matrix`?o+s:s},Ve=/\{[^{}]+\}/g,He=({path:e,url:t})=>{let n=t,r=t.match(Ve);if(r)for(let t of r){let r=!1,i=t.substring(1,t.length-1),a=`simple`;i.endsWith(`*`)&&(r=!0,i=i.substring(0,i.length-1)),i.startsWith(`.`)?(i=i.substring(1),a=`label`):i.startsWith(`;`)&&(i=i.substring(1),a=`matrix`);let o=e[i];if(o==null)continue;if(Array.isArray(o)){n=n.replace(t,ze({explode:r,name:i,style:a,value:o}));continue}if(typeof o==`object`){n=n.replace(t,Be({explode:r,name:i,style:a,value:o,valueOnly:!0}));continue}if(a===`matrix`){n=n.replace(t,`;${V({name:i,value:o})}`);continue}let s=encodeURIComponent(a===`label`?`.${o}`:o);n=n.replace(t,s)}return n},Ue=({baseUrl:e,path:t,query:n,querySerializer:r,url:i})=>{let a=i.startsWith(`/`)?i:`/${i}`,o=(e??``)+a;t&&(o=He({path:t,url:o}));let s=n?r(n):``;return s.startsWith(`?`)&&(s=s.substring(1)),s&&(o+=`?${s}`),o};function We(e){let t=e.body!==void 0;if(t&&e.bodySerializer)return`serializedBody`in e?e.serializedBody!==void 0&&e.serializedBody!==``?e.serializedBody:null:e.body===``?null:e.body;if(t)return e.body}var Ge=async(e,t)=>{let n=typeof t==`function`?await t(e):t;if(n)return e.scheme===`bearer`?`Bearer ${n}`:e.scheme===`basic`?`Basic ${btoa(n)}`:n},Ke=({parameters:e={},...t}={})=>n=>{let r=[];if(n&&typeof n==`object`)for(let i in n){let a=n[i];if(a==null)continue;let o=e[i]||t;if(Array.isArray(a)){let e=ze({allowReserved:o.allowReserved,explode:!0,name:i,style:`form`,value:a,...o.array});e&&r.push(e)}else if(typeof a==`object`){let e=Be({allowReserved:o.allowReserved,explode:!0,name:i,style:`deepObject`,value:a,...o.object});e&&r.push(e)}else{let e=V({allowReserved:o.allowReserved,name:i,value:a});e&&r.push(e)}}return r.join(`&`)},qe=e=>{if(!e)return`stream`;let t=e.split(`;`)[0]?.trim();if(t){if(t.startsWith(`application/json`)||t.endsWith(`+json`))return`json`;if(t===`multipart/form-data`)return`formData`;if([`application/`,`audio/`,`image/`,`video/`].some(e=>t.startsWith(e)))return`blob`;if(t.startsWith(`text/`))return`text`}},Je=(e,t)=>t?!!(e.headers.has(t)||e.query?.[t]||e.headers.get(`Cookie`)?.includes(`${t}=`)):!1,Ye=async({security:e,...t})=>{for(let n of e){if(Je(t,n.name))continue;let e=await Ge(n,t.auth);if(!e)continue;let r=n.name??`Authorization`;switch(n.in){case`query`:t.query||={},t.query[r]=e;break;case`cookie`:t.headers.append(`Cookie`,`${r}=${e}`);break;default:t.headers.set(r,e)}}},Xe=e=>Ue({baseUrl:e.baseUrl,path:e.path,query:e.query,querySerializer:typeof e.querySerializer==`function`?e.querySerializer:Ke(e.querySerializer),url:e.url}),Ze=(e,t)=>{let n={...e,...t};return n.baseUrl?.endsWith(`/`)&&(n.baseUrl=n.baseUrl.substring(0,n.baseUrl.length-1)),n.headers=$e(e.headers,t.headers),n},Qe=e=>{let t=[];return e.forEach((e,n)=>{t.push([n,e])}),t},$e=(...e)=>{let t=new Headers;for(let n of e){if(!n)continue;let e=n instanceof Headers?Qe(n):Object.entries(n);for(let[n,r]of e)if(r===null)t.delete(n);else if(Array.isArray(r))for(let e of r)t.append(n,e);else r!==void 0&&t.set(n,typeof r==`object`?JSON.stringify(r):r)}return t},et=class{fns=[];clear(){this.fns=[]}eject(e){let t=this.getInterceptorIndex(e);this.fns[t]&&(this.fns[t]=null)}exists(e){let t=this.getInterceptorIndex(e);return!!this.fns[t]}getInterceptorIndex(e){return typeof e==`number`?this.fns[e]?e:-1:this.fns.indexOf(e)}update(e,t){let n=this.getInterceptorIndex(e);return this.fns[n]?(this.fns[n]=t,e):!1}use(e){return this.fns.push(e),this.fns.length-1}},tt=()=>({error:new et,request:new et,response:new et}),nt=Ke({allowReserved:!1,array:{explode:!0,style:`form`},object:{explode:!0,style:`deepObject`}}),rt={"Content-Type":`application/json`},it=(e={})=>({...Pe,headers:rt,parseAs:`auto`,querySerializer:nt,...e}),at=(e={})=>{let t=Ze(it(),e),n=()=>({...t}),r=e=>(t=Ze(t,e),n()),i=tt(),a=async e=>{let n={...t,...e,fetch:e.fetch??t.fetch??globalThis.fetch,headers:$e(t.headers,e.headers),serializedBody:void 0};n.security&&await Ye({...n,security:n.security}),n.requestValidator&&await n.requestValidator(n),n.body!==void 0&&n.bodySerializer&&(n.serializedBody=n.bodySerializer(n.body)),(n.body===void 0||n.serializedBody===``)&&n.headers.delete(`Content-Type`);let r=n;return{opts:r,url:Xe(r)}},o=async e=>{let{opts:t,url:n}=await a(e),r={redirect:`follow`,...t,body:We(t)},o=new Request(n,r);for(let e of i.request.fns)e&&(o=await e(o,t));let s=t.fetch,c;try{c=await s(o)}catch(e){let n=e;for(let r of i.error.fns)r&&(n=await r(e,void 0,o,t));if(n||={},t.throwOnError)throw n;return t.responseStyle===`data`?void 0:{error:n,request:o,response:void 0}}for(let e of i.response.fns)e&&(c=await e(c,o,t));let l={request:o,response:c};if(c.ok){let e=(t.parseAs===`auto`?qe(c.headers.get(`Content-Type`)):t.parseAs)??`json`;if(c.status===204||c.headers.get(`Content-Length`)===`0`){let n;switch(e){case`arrayBuffer`:case`blob`:case`text`:n=await c[e]();break;case`formData`:n=new FormData;break;case`stream`:n=c.body;break;default:n={}}return t.responseStyle===`data`?n:{data:n,...l}}let n;switch(e){case`arrayBuffer`:case`blob`:case`formData`:case`text`:n=await c[e]();break;case`json`:{let e=await c.text();n=e?JSON.parse(e):{};break}case`stream`:return t.responseStyle===`data`?c.body:{data:c.body,...l}}return e===`json`&&(t.responseValidator&&await t.responseValidator(n),t.responseTransformer&&(n=await t.responseTransformer(n))),t.responseStyle===`data`?n:{data:n,...l}}let u=await c.text(),d;try{d=JSON.parse(u)}catch{}let f=d??u,p=f;for(let e of i.error.fns)e&&(p=await e(f,c,o,t));if(p||={},t.throwOnError)throw p;return t.responseStyle===`data`?void 0:{error:p,...l}},s=e=>t=>o({...t,method:e}),c=e=>async t=>{let{opts:n,url:r}=await a(t);return Fe({...n,body:n.body,headers:n.headers,method:e,onRequest:async(e,t)=>{let r=new Request(e,t);for(let e of i.request.fns)e&&(r=await e(r,n));return r},serializedBody:We(n),url:r})};return{buildUrl:e=>Xe({...t,...e}),connect:s(`CONNECT`),delete:s(`DELETE`),get:s(`GET`),getConfig:n,head:s(`HEAD`),interceptors:i,options:s(`OPTIONS`),patch:s(`PATCH`),post:s(`POST`),put:s(`PUT`),request:o,setConfig:r,sse:{connect:c(`CONNECT`),delete:c(`DELETE`),get:c(`GET`),head:c(`HEAD`),options:c(`OPTIONS`),patch:c(`PATCH`),post:c(`POST`),put:c(`PUT`),trace:c(`TRACE`)},trace:s(`TRACE`)}},H=at(it({baseUrl:`http://localhost:8080`})),ot=e=>(e?.client??H).get({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/calls`,...e}),st=e=>(e.client??H).post({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/calls`,...e,headers:{"Content-Type":`application/json`,...e.headers}}),ct=e=>(e.client??H).post({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/calls/preflight`,...e,headers:{"Content-Type":`application/json`,...e.headers}}),lt=e=>(e?.client??H).get({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/batches`,...e}),ut=e=>(e.client??H).post({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/batches`,...e,headers:{"Content-Type":`application/json`,...e.headers}}),dt=e=>(e.client??H).get({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/batches/{id}`,...e}),ft=e=>(e.client??H).post({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/batches/{id}/cancel`,...e}),pt=e=>(e.client??H).get({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/batches/{id}/rows`,...e}),mt=e=>(e?.client??H).get({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/stats`,...e}),ht=e=>(e?.client??H).get({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/settings`,...e}),gt=e=>(e?.client??H).get({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/do-not-call`,...e}),_t=e=>(e.client??H).post({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/do-not-call`,...e,headers:{"Content-Type":`application/json`,...e.headers}}),vt=e=>(e.client??H).delete({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/do-not-call/{number}`,...e}),yt=e=>(e.client??H).get({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/calls/{id}`,...e}),bt=e=>(e.client??H).post({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/calls/{id}/cancel`,...e}),xt=e=>(e.client??H).get({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/calls/{id}/recording`,...e}),St=e=>(e.client??H).get({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/calls/{id}/events`,...e}),Ct=e=>(e.client??H).post({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/calls/{id}/events/{eventId}/redeliver`,...e}),wt=e=>(e.client??H).get({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/batches/{id}/events`,...e}),Tt=e=>(e.client??H).post({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/batches/{id}/events/{eventId}/redeliver`,...e});function U(e,t){let n=e.get(t);return n!==null&&/^\d+$/.test(n.trim())?Number(n.trim()):null}function Et(e){return{limit:U(e,`RateLimit-Limit`),remaining:U(e,`RateLimit-Remaining`),resetSec:U(e,`RateLimit-Reset`),retryAfterSec:U(e,`Retry-After`)}}var W=class e extends Error{status;token;rateLimit;requestId;errors;name=`SvcApiError`;constructor(e,t,n,r,i,a=null){super(n),this.status=e,this.token=t,this.rateLimit=r,this.requestId=i,this.errors=a}static fromResponse(t,n){let r=typeof n==`object`&&n?n:{},i=typeof r.error==`string`?r.error:`http_${t.status}`,a=typeof r.message==`string`?r.message:`The service answered ${t.status} ${t.statusText}`.trim(),o=Array.isArray(r.errors)?r.errors:null;return new e(t.status,i,a,Et(t.headers),t.headers.get(`X-Request-Id`),o)}},G=class extends Error{name=`SvcNetworkError`;constructor(e,t){super(e,t)}},Dt=class extends Error{callId;timeoutMs;lastStatus;name=`SvcTimeoutError`;constructor(e,t,n,r=`Call`){super(`${r} ${e} did not reach a terminal status within ${t} ms (last status: ${n??`unknown`}). Wait longer, or subscribe to webhooks instead of polling.`),this.callId=e,this.timeoutMs=t,this.lastStatus=n}},Ot=(e,t)=>new Promise((n,r)=>{if(t?.aborted)return r(t.reason);let i=()=>{clearTimeout(a),r(t.reason)},a=setTimeout(()=>{t?.removeEventListener(`abort`,i),n()},e);t?.addEventListener(`abort`,i,{once:!0})}),kt=class e{random;maxAttempts;baseDelayMs;maxDelayMs;constructor(e,t){this.random=t,this.maxAttempts=e?Math.max(1,Math.floor(e.maxAttempts??3)):1,this.baseDelayMs=e?e.baseDelayMs??500:0,this.maxDelayMs=e?e.maxDelayMs??3e4:0}static isTransient(e,t){return e instanceof G?!0:e instanceof W?e.status===429?t!==`preflight`&&e.token===`rate_limited`:e.status===409?t===`placement`&&e.token===`idempotency_key_in_use`:e.status===502||e.status===503:!1}delayAfter(t,n,r){if(n>=this.maxAttempts||!e.isTransient(t,r))return null;let i=t instanceof W?t.rateLimit.retryAfterSec:null;if(i!==null){let e=i*1e3;return e<=this.maxDelayMs?e:null}let a=Math.min(this.maxDelayMs,this.baseDelayMs*2**(n-1));return Math.round(a/2+a/2*this.random())}},At=[`completed`,`no_answer`,`voicemail`,`declined`,`failed`,`canceled`],jt=[`completed`,`canceled`,`stopped`];function Mt(e){return At.includes(e)}async function Nt(e,t,n,r,i=Mt){let{timeoutMs:a=6e5,intervalMs:o=2e3,signal:s}=r,c=n.now()+a,l=null;for(;;){if(s?.aborted)throw s.reason;let r=o;try{let{data:e,rateLimit:n}=await t(s);if(i(e.status))return e;l=e.status,n.remaining===0&&n.resetSec!==null&&(r=Math.max(r,n.resetSec*1e3))}catch(e){if(s?.aborted||!kt.isTransient(e,`other`))throw e;let t=e.rateLimit?.retryAfterSec??null;t!==null&&(r=Math.max(r,t*1e3))}let u=c-n.now();if(u<=0)throw new Dt(e,a,l,i===Mt?`Call`:`Batch`);await n.sleep(Math.min(r,u),s)}}var Pt=class extends Error{constructor(e,t){super(e),this.name=`ParseError`,this.type=t.type,this.field=t.field,this.value=t.value,this.line=t.line}},Ft=10,It=13,K=32;function Lt(e){}function Rt(e){if(typeof e==`function`)throw TypeError("`config` must be an object, got a function instead. Did you mean `createParser({onEvent: fn})`?");let{onEvent:t=Lt,onError:n=Lt,onRetry:r=Lt,onComment:i,maxBufferSize:a}=e,o=[],s=0,c=!0,l,u=``,d=0,f,p=!1;function m(e){if(p)throw Error("Cannot feed parser: it was terminated after exceeding the configured max buffer size. Call `reset()` to resume parsing.");if(c&&(c=!1,e.charCodeAt(0)===239&&e.charCodeAt(1)===187&&e.charCodeAt(2)===191&&(e=e.slice(3))),o.length===0){let t=g(e);t!==``&&(o.push(t),s=t.length),h();return}if(e.indexOf(`
`)===-1&&e.indexOf(`\r`)===-1){o.push(e),s+=e.length,h();return}o.push(e);let t=o.join(``);o.length=0,s=0;let n=g(t);n!==``&&(o.push(n),s=n.length),h()}function h(){a!==void 0&&(s+u.length<=a||(p=!0,o.length=0,s=0,l=void 0,u=``,d=0,f=void 0,n(new Pt(`Buffered data exceeded max buffer size of ${a} characters`,{type:`max-buffer-size-exceeded`}))))}function g(e){let n=0;if(e.indexOf(`\r`)===-1){let r=e.indexOf(`
`,n);for(;r!==-1;){if(n===r){d>0&&t({id:l,event:f,data:u}),l=void 0,u=``,d=0,f=void 0,n=r+1,r=e.indexOf(`
`,n);continue}let i=e.charCodeAt(n);if(zt(e,n,i)){let i=e.charCodeAt(n+5)===K?n+6:n+5,a=e.slice(i,r);if(d===0&&e.charCodeAt(r+1)===Ft){t({id:l,event:f,data:a}),l=void 0,u=``,f=void 0,n=r+2,r=e.indexOf(`
`,n);continue}u=d===0?a:`${u}
${a}`,d++}else Bt(e,n,i)?f=e.slice(e.charCodeAt(n+6)===K?n+7:n+6,r)||void 0:_(e,n,r);n=r+1,r=e.indexOf(`
`,n)}return e.slice(n)}for(;n<e.length;){let t=e.indexOf(`\r`,n),r=e.indexOf(`
`,n),i=-1;if(t!==-1&&r!==-1?i=t<r?t:r:t===-1?r!==-1&&(i=r):i=t===e.length-1?-1:t,i===-1)break;_(e,n,i),n=i+1,e.charCodeAt(n-1)===It&&e.charCodeAt(n)===Ft&&n++}return e.slice(n)}function _(e,t,n){if(t===n){y();return}let r=e.charCodeAt(t);if(zt(e,t,r)){let r=e.charCodeAt(t+5)===K?t+6:t+5,i=e.slice(r,n);u=d===0?i:`${u}
${i}`,d++;return}if(Bt(e,t,r)){f=e.slice(e.charCodeAt(t+6)===K?t+7:t+6,n)||void 0;return}if(r===105&&e.charCodeAt(t+1)===100&&e.charCodeAt(t+2)===58){let r=e.slice(e.charCodeAt(t+3)===K?t+4:t+3,n);r.includes(`\0`)||(l=r);return}if(r===58){if(i){let r=e.slice(t,n);i(r.slice(e.charCodeAt(t+1)===K?2:1))}return}let a=e.slice(t,n),o=a.indexOf(`:`);if(o===-1){v(a,``,a);return}let s=a.slice(0,o),c=a.charCodeAt(o+1)===K?2:1;v(s,a.slice(o+c),a)}function v(e,t,i){switch(e){case`event`:f=t||void 0;break;case`data`:u=d===0?t:`${u}
${t}`,d++;break;case`id`:t.includes(`\0`)||(l=t);break;case`retry`:/^\d+$/.test(t)?r(parseInt(t,10)):n(new Pt(`Invalid \`retry\` value: "${t}"`,{type:`invalid-retry`,value:t,line:i}));break;default:n(new Pt(`Unknown field "${e.length>20?`${e.slice(0,20)}\u2026`:e}"`,{type:`unknown-field`,field:e,value:t,line:i}))}}function y(){d>0&&t({id:l,event:f,data:u}),l=void 0,u=``,d=0,f=void 0}function b(e={}){if(e.consume&&o.length>0){let e=o.join(``);_(e,0,e.length)}c=!0,l=void 0,u=``,d=0,f=void 0,o.length=0,s=0,p=!1}return{feed:m,reset:b}}function zt(e,t,n){return n===100&&e.charCodeAt(t+1)===97&&e.charCodeAt(t+2)===116&&e.charCodeAt(t+3)===97&&e.charCodeAt(t+4)===58}function Bt(e,t,n){return n===101&&e.charCodeAt(t+1)===118&&e.charCodeAt(t+2)===101&&e.charCodeAt(t+3)===110&&e.charCodeAt(t+4)===116&&e.charCodeAt(t+5)===58}var Vt=class extends TransformStream{constructor({onError:e,onRetry:t,onComment:n,maxBufferSize:r}={}){let i;super({start(a){i=Rt({onEvent:e=>{a.enqueue(e)},onError(t){typeof e==`function`&&e(t),(e===`terminate`||t.type===`max-buffer-size-exceeded`)&&a.error(t)},onRetry:t,onComment:n,maxBufferSize:r})},transform(e){i.feed(e)}})}},Ht=new Set([`status`,`turn`,`tool_call`]);async function*Ut(e,t,n,r){let{signal:i}=n,a=n.maxReconnects??10,o=n.lastEventId,s=1e3,c=0;for(;;){let n={Authorization:`Bearer ${e.apiKey}`,Accept:`text/event-stream`};o!==void 0&&(n[`Last-Event-ID`]=o);let l;try{l=await e.fetch(`${e.baseUrl}${t}`,{headers:n,signal:i})}catch(n){if(i?.aborted)throw i.reason;if(++c>a)throw new G(`The stream ${t} could not be reached at ${e.baseUrl}: ${n instanceof Error?n.message:String(n)}.`,{cause:n});await e.sleep(s,i);continue}if(!l.ok){let e=await l.json().catch(()=>void 0);throw W.fromResponse(l,e)}let u=l.body.pipeThrough(new TextDecoderStream).pipeThrough(new Vt({onRetry:e=>s=e}));try{for await(let e of u){if(!Ht.has(e.event??``))continue;let t={event:e.event,id:e.id??``,data:JSON.parse(e.data)};if(e.id!==void 0&&(o=e.id),c=0,yield t,r(t))return}}catch{if(i?.aborted)throw i.reason}if(i?.aborted)throw i.reason;if(++c>a)throw new G(`The stream ${t} kept ending without its last event.`,{cause:void 0});await e.sleep(s,i)}}var Wt=e=>e.event===`status`&&Mt(e.data.status),Gt=class{client;retry;sleep;now;transport;baseUrl;constructor(e){if(typeof e?.apiKey!=`string`||e.apiKey===``)throw TypeError(`SvcClient needs an API key: new SvcClient({ apiKey: process.env.SVC_API_KEY }).`);this.baseUrl=(e.baseUrl??`http://localhost:8080`).replace(/\/+$/,``),this.client=at(it({baseUrl:this.baseUrl,fetch:e.fetch,auth:e.apiKey})),this.retry=new kt(e.retries,e.random??Math.random),this.sleep=e.sleep??Ot,this.now=e.now??Date.now;let t=e.fetch??globalThis.fetch;this.transport={baseUrl:this.baseUrl,apiKey:e.apiKey,fetch:(e,n)=>t(e,n),sleep:this.sleep}}async placeCall(e,t={}){let n=t.idempotencyKey??globalThis.crypto.randomUUID(),{signal:r}=t;return(await this.send(()=>st({client:this.client,body:e,headers:{"Idempotency-Key":n},signal:r}),r,`placement`)).data}async preflightCall(e,t={}){let{signal:n}=t;return(await this.send(()=>ct({client:this.client,body:e,signal:n}),n,`preflight`)).data}async cancelCall(e,t={}){let{signal:n,idempotencyKey:r}=t,i=r===void 0?void 0:{"Idempotency-Key":r};return(await this.send(()=>bt({client:this.client,path:{id:e},headers:i,signal:n}),n,`other`)).data}async addDoNotCall(e,t={}){let{signal:n,reason:r}=t,i=r===void 0?{number:e}:{number:e,reason:r};return(await this.send(()=>_t({client:this.client,body:i,signal:n}),n,`other`)).data}async listDoNotCall(e={}){let{signal:t,limit:n,after:r}=e,i={...n===void 0?{}:{limit:n},...r===void 0?{}:{after:r}};return(await this.send(()=>gt({client:this.client,query:i,signal:t}),t,`other`)).data}async removeDoNotCall(e,t={}){let{signal:n}=t;await this.send(()=>vt({client:this.client,path:{number:e},signal:n}),n,`other`)}async getCall(e,t={}){return(await this.getCallAnswer(e,t.signal)).data}async listCalls(e={}){let{signal:t,...n}=e,r=Object.entries(n).filter(([,e])=>e!==void 0),i=r.length===0?void 0:Object.fromEntries(r);return(await this.send(()=>ot({client:this.client,query:i,signal:t}),t,`other`)).data}async getStats(e={}){let{signal:t,createdFrom:n,createdTo:r}=e,i=n===void 0&&r===void 0?void 0:{...n===void 0?{}:{createdFrom:n},...r===void 0?{}:{createdTo:r}};return(await this.send(()=>mt({client:this.client,query:i,signal:t}),t,`other`)).data}async getSettings(e={}){let{signal:t}=e;return(await this.send(()=>ht({client:this.client,signal:t}),t,`other`)).data}async createBatch(e,t={}){let n=t.idempotencyKey??globalThis.crypto.randomUUID(),{signal:r}=t;return(await this.send(()=>ut({client:this.client,body:e,headers:{"Idempotency-Key":n},signal:r}),r,`placement`)).data}async getBatch(e,t={}){let{signal:n}=t;return(await this.send(()=>dt({client:this.client,path:{id:e},signal:n}),n,`other`)).data}async listBatches(e={}){let{signal:t,limit:n}=e,r=n===void 0?void 0:{limit:n};return(await this.send(()=>lt({client:this.client,query:r,signal:t}),t,`other`)).data}async listBatchRows(e,t={}){let{signal:n,limit:r,after:i,state:a}=t,o={...r===void 0?{}:{limit:r},...i===void 0?{}:{after:i},...a===void 0?{}:{state:a}};return(await this.send(()=>pt({client:this.client,path:{id:e},query:o,signal:n}),n,`other`)).data}async cancelBatch(e,t={}){let{signal:n}=t;return(await this.send(()=>ft({client:this.client,path:{id:e},signal:n}),n,`other`)).data}waitForBatch(e,t={}){return Nt(e,t=>this.send(()=>dt({client:this.client,path:{id:e},signal:t}),t,`other`),{sleep:this.sleep,now:this.now},t,e=>jt.includes(e))}async listCallEvents(e,t={}){let{signal:n}=t;return(await this.send(()=>St({client:this.client,path:{id:e},signal:n}),n,`other`)).data.events}async redeliverEvent(e,t,n={}){let{signal:r}=n;return(await this.send(()=>Ct({client:this.client,path:{id:e,eventId:t},signal:r}),r,`other`)).data}async listBatchEvents(e,t={}){let{signal:n}=t;return(await this.send(()=>wt({client:this.client,path:{id:e},signal:n}),n,`other`)).data.events}async redeliverBatchEvent(e,t,n={}){let{signal:r}=n;return(await this.send(()=>Tt({client:this.client,path:{id:e,eventId:t},signal:r}),r,`other`)).data}streamCall(e,t={}){return Ut(this.transport,`/v1/agent/calls/${encodeURIComponent(e)}/stream`,t,Wt)}streamEvents(e={}){return Ut(this.transport,`/v1/agent/stream`,e,()=>!1)}async getCallRecording(e,t={}){let{signal:n,range:r,channels:i}=t,a=r===void 0?void 0:{Range:r},o=i===void 0?void 0:{channels:i},s=await this.send(()=>xt({client:this.client,path:{id:e},query:o,headers:a,signal:n,parseAs:`blob`}),n,`other`);return{audio:s.data,status:s.response.status,contentRange:s.response.headers.get(`Content-Range`)}}waitForCall(e,t={}){return Nt(e,t=>this.getCallAnswer(e,t),{sleep:this.sleep,now:this.now},t)}getCallAnswer(e,t){return this.send(()=>yt({client:this.client,path:{id:e},signal:t}),t,`other`)}async send(e,t,n){for(let r=1;;r++)try{return await this.once(e,t)}catch(e){let i=this.retry.delayAfter(e,r,n);if(i===null)throw e;await this.sleep(i,t)}}async once(e,t){let n=await e(),{response:r}=n;if(!r){if(t?.aborted)throw t.reason;let e=n.error;throw new G(`The request to the service failed before any answer: ${e instanceof Error?`${e.message}${e.cause instanceof Error?` (${e.cause.message})`:``}`:String(e)}. Is the service running at ${this.baseUrl}?`,{cause:e})}if(!r.ok)throw W.fromResponse(r,n.error);return{data:n.data,rateLimit:Et(r.headers),response:r}}},Kt=`svc.apiKey`,qt=()=>sessionStorage.getItem(Kt),Jt=e=>sessionStorage.setItem(Kt,e.trim()),Yt=()=>sessionStorage.removeItem(Kt),Xt=null;function q(){let e=qt();if(!e)throw Error(`not signed in`);return Xt?.key!==e&&(Xt={key:e,svc:new Gt({apiKey:e,baseUrl:location.origin})}),Xt.svc}function Zt(e){return e instanceof W?{token:e.token,message:e.message}:e instanceof G?{token:`service_unreachable`,message:e.message}:typeof e==`object`&&e&&`token`in e&&`message`in e?{token:String(e.token),message:String(e.message)}:{token:`error`,message:e instanceof Error?e.message:String(e)}}function J({error:e}){if(!e)return null;let{token:t,message:n}=Zt(e);return B`<p class="error" role="alert"><code>${t}</code> ${n}</p>`}var Qt=[`completed`,`no_answer`,`voicemail`,`declined`,`failed`,`canceled`],Y=e=>!Qt.includes(e);function X({status:e}){return B`<span class=${`chip chip-${e}`}>${e.replace(`_`,` `)}</span>`}var Z=e=>e?new Date(e).toLocaleString():`—`,$t=e=>e==null?`—`:`${Math.round(e)} s`,en=e=>`${Math.floor(e/60)}:${String(Math.floor(e%60)).padStart(2,`0`)}`;function tn({children:e}){return B`<p class="empty">${e}</p>`}function nn({onSignedIn:e}){let[t,n]=L(``),[r,i]=L(null),[a,o]=L(!1);document.title=`Sign in · svc console`;async function s(n){n.preventDefault(),o(!0),i(null),Jt(t);try{await q().listCalls({limit:1}),e()}catch(e){Yt(),i(e)}finally{o(!1)}}return B`
    <main class="sign-in">
      <h1>svc console</h1>
      <p>Paste an API key. It is kept in this browser tab only, and cleared when you sign out or close the tab.</p>
      <form onSubmit=${s}>
        <label for="api-key">API key</label>
        <input id="api-key" name="api-key" type="password" autocomplete="off" required placeholder="svc_ak_…" value=${t} onInput=${e=>n(e.target.value)} />
        <button type="submit" disabled=${a||t.trim()===``}>Sign in</button>
      </form>
      <${J} error=${r} />
    </main>
  `}var rn=[`queued`,`dialing`,`in_progress`,...Qt],an=[`human`,`machine`,`fax`,`unknown`,`none`],on=100,sn=e=>{let t=new Date(e);return Number.isNaN(t.getTime())?``:`${t.getFullYear()}-${String(t.getMonth()+1).padStart(2,`0`)}-${String(t.getDate()).padStart(2,`0`)}`},cn=(e,t=0)=>{let[n,r,i]=e.split(`-`).map(Number);return new Date(n,r-1,i+t).toISOString()};function ln(){let e=new URLSearchParams(location.hash.split(`?`)[1]??``);return{q:e.get(`q`)??``,status:e.get(`status`)??``,answeredBy:e.get(`answeredBy`)??``,batchId:e.get(`batch`)??``,from:e.get(`from`)?sn(e.get(`from`)):``,to:``}}function un(e,t){let n={limit:on};return e.q.trim()&&(n.q=e.q.trim()),e.status&&(n.status=e.status),e.answeredBy&&(n.answeredBy=e.answeredBy),e.batchId.trim()&&(n.batchId=e.batchId.trim()),e.from&&(n.createdFrom=cn(e.from)),e.to&&(n.createdTo=cn(e.to,1)),t&&(n.cursor=t),n}function dn(){let[e,t]=L(null),[n,r]=L(null),[i,a]=L(ln),[o,s]=L([void 0]),[c,l]=L(!1),u=o.length-1,d=Object.values(i).some(e=>e.trim()!==``);document.title=`Calls · svc console`;let f=e=>t=>{let n=t.target.value;a(t=>t[e]===n?t:{...t,[e]:n}),s([void 0])};R(()=>{let e=new AbortController,n=()=>q().listCalls({...un(i,o[u]),signal:e.signal}).then(e=>{t(e),r(null)}).catch(t=>e.signal.aborted||r(t));return t(null),n(),(async()=>{try{l(!0);for await(let r of q().streamEvents({signal:e.signal})){if(r.event!==`status`)continue;let{callId:e,status:i,durationSec:a}=r.data,o=!1;t(t=>(o=!!t?.calls.some(t=>t.id===e),t&&{...t,calls:t.calls.map(t=>t.id===e?{...t,status:i,durationSec:a??t.durationSec}:t)})),!o&&u===0&&n()}}catch(t){e.signal.aborted||r(t)}finally{l(!1)}})(),()=>e.abort()},[i,o]);let p=e?.calls??null;return B`
    <h1>Calls</h1>
    <form class="filters" role="search" aria-label="Search and filter calls" onSubmit=${e=>e.preventDefault()}>
      <label>Search
        <input type="search" name="q" placeholder="number, objective or metadata" value=${i.q} onChange=${f(`q`)} />
      </label>
      <label>Status
        <select name="status" value=${i.status} onChange=${f(`status`)}>
          <option value="">any</option>
          ${rn.map(e=>B`<option value=${e}>${e.replace(`_`,` `)}</option>`)}
        </select>
      </label>
      <label>Answered by
        <select name="answeredBy" value=${i.answeredBy} onChange=${f(`answeredBy`)}>
          <option value="">anyone or no one</option>
          ${an.map(e=>B`<option value=${e}>${e===`none`?`no one`:e}</option>`)}
        </select>
      </label>
      <label>Batch
        <input type="text" name="batch" placeholder="batch id" value=${i.batchId} onChange=${f(`batchId`)} />
      </label>
      <label>Created from
        <input type="date" name="from" value=${i.from} onChange=${f(`from`)} />
      </label>
      <label>Created to
        <input type="date" name="to" value=${i.to} onChange=${f(`to`)} />
      </label>
      <button type="submit">Search</button>
      ${d?B`<button
              type="button"
              class="secondary"
              onClick=${()=>{a({q:``,status:``,answeredBy:``,batchId:``,from:``,to:``}),s([void 0])}}
            >
              Clear filters
            </button>`:null}
      <span class="live" aria-live="polite">${c?`live`:``}</span>
    </form>
    <${J} error=${n} />
    ${p===null?n?null:B`<p>Loading…</p>`:p.length===0?B`<${tn}>No calls${d?` match these filters`:` yet`}. <a href="#/place">Place a call</a>.<//>`:B`
            <div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Created</th><th scope="col">Status</th><th scope="col">To</th><th scope="col">Answered by</th>
                    <th scope="col">Objective</th><th scope="col">Duration</th><th scope="col">Batch</th>
                  </tr>
                </thead>
                <tbody>
                  ${p.map(e=>B`
                      <tr key=${e.id} data-call=${e.id}>
                        <td class="when"><time datetime=${e.createdAt}>${Z(e.createdAt)}</time></td>
                        <td><${X} status=${e.status} /></td>
                        <td><a href=${`#/calls/${e.id}`}>${e.to??e.id}</a></td>
                        <td>${e.answeredBy??`—`}</td>
                        <td class="objective">${e.objective}</td>
                        <td>${$t(e.durationSec)}</td>
                        <td>${e.batchId?B`<a
                                href=${`#/calls?batch=${e.batchId}`}
                                onClick=${()=>{a(t=>({...t,batchId:e.batchId})),s([void 0])}}
                                >${e.batchId.slice(0,8)}</a
                              >`:`—`}</td>
                      </tr>
                    `)}
                </tbody>
              </table>
            </div>
          `}
    ${p!==null&&(u>0||e?.nextCursor)?B`
          <nav class="pager" aria-label="Pages of calls">
            <button type="button" class="secondary" disabled=${u===0} onClick=${()=>s(e=>e.slice(0,-1))}>Previous page</button>
            <span aria-live="polite">Page ${u+1}</span>
            <button type="button" class="secondary" disabled=${!e?.nextCursor} onClick=${()=>s(t=>[...t,e.nextCursor])}>Next page</button>
          </nav>
        `:null}
  `}var fn=[`delivered`,`failed`,`gone`];function pn({source:e,version:t=0}){let[n,r]=L(null),[i,a]=L(null),o=()=>e.list().then(r).catch(a);R(()=>void o(),[t]),R(()=>{if(!n?.some(e=>e.state===`pending`))return;let e=setTimeout(()=>void o(),1e3);return()=>clearTimeout(e)},[n]);async function s(t){a(null);try{await e.redeliver(t),await o()}catch(e){a(e)}}return B`
    <h2>Events</h2>
    <${J} error=${i} />
    ${n===null?B`<p>Loading…</p>`:n.length===0?B`<p class="empty">No events yet.</p>`:B`<div class="table-wrap"><table class="events">
            <thead><tr><th scope="col">Event</th><th scope="col">Delivery</th><th scope="col">Attempts</th><th scope="col">Last attempt</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
            <tbody>
              ${n.map(e=>{let t=e.attempts.at(-1);return B`<tr data-event=${e.eventId}>
                  <td>${e.event}</td>
                  <td><span class=${`state state-${e.state}`}>${e.state}</span></td>
                  <td>${e.attempts.length+e.attemptsOmitted}</td>
                  <td>${t?`${t.statusCode??t.error??`—`} · ${t.latencyMs} ms${t.redelivery?` · redelivery`:``}`:`—`}</td>
                  <td>${fn.includes(e.state)?B`<button type="button" class="secondary" onClick=${()=>s(e.eventId)}>Redeliver</button>`:null}</td>
                </tr>`})}
            </tbody>
          </table></div>`}
  `}function mn({uses:e,live:t}){return B`
    <h2 id="tool-calls">Tool calls</h2>
    ${e.length===0?B`<p class="empty">${t?`No tool called yet.`:`The agent called none of its tools.`}</p>`:B`<div class="table-wrap">
          <table class="tool-calls" aria-labelledby="tool-calls">
            <thead><tr><th>Tool</th><th>Arguments</th><th>Status</th><th>Latency</th><th>Error</th><th>Called</th></tr></thead>
            <tbody>
              ${e.map((e,t)=>B`<tr data-tool-call=${t}>
                  <td><code>${e.name}</code></td>
                  <td class="arguments"><code>${JSON.stringify(e.arguments)}</code></td>
                  <td><span class=${`state state-${e.status===`ok`?`delivered`:`failed`}`}>${e.status}</span></td>
                  <td>${e.latencyMs} ms</td>
                  <td>${e.error??`—`}</td>
                  <td>${Z(e.at)}</td>
                </tr>`)}
            </tbody>
          </table>
        </div>`}
  `}function hn(e,t){let n=[],r=e;for(let e of t){let t=r.indexOf(e);e===``||t<0||(n.push(r.slice(0,t),B`<mark>${e}</mark>`),r=r.slice(t+e.length))}return n.push(r),n}var gn=e=>e===null?`—`:`${e} ms`;function _n({latency:e}){return B`
    <h2>Latency</h2>
    <dl class="record latency">
      <dt>First audio</dt><dd>${gn(e.firstAudioMs)} after the answer</dd>
      <dt>Answers</dt><dd>${e.turns.length===0?`—`:B`median ${gn(e.p50Ms)}, 95th percentile ${gn(e.p95Ms)} after the callee stopped (${e.turns.length})`}</dd>
      <dt>Barge-ins</dt><dd>${e.bargeIns.length===0?`none`:e.bargeIns.map(e=>`at ${en(e.atMs/1e3)}, cleared in ${e.clearMs} ms`).join(`; `)}</dd>
    </dl>
    ${e.turns.length===0?null:B`<table class="latency-turns">
          <thead><tr><th>Callee stopped</th><th>Agent answered after</th></tr></thead>
          <tbody>${e.turns.map(e=>B`<tr><td>${en(e.atMs/1e3)}</td><td>${e.afterMs} ms</td></tr>`)}</tbody>
        </table>`}
  `}function vn({id:e}){let[t,n]=L(null),[r,i]=L([]),[a,o]=L([]),[s,c]=L(0),[l,u]=L(null),[d,f]=L(null),[p,m]=L(null),[h,g]=L(-1),_=Ce(null);if(document.title=`Call ${e.slice(0,8)} · svc console`,R(()=>{let t=new AbortController,r=null,a=async()=>{let a=await q().getCall(e,{signal:t.signal});if(n(a),a.turns&&i(a.turns),o(a.toolCalls??[]),a.recordingUrl&&!r){let n=await q().getCallRecording(e,{signal:t.signal});r=URL.createObjectURL(n.audio),m(r)}return a};return(async()=>{try{let r=await a();if(!Y(r.status))return;let s=[],l=[...r.toolCalls??[]];for await(let r of q().streamCall(e,{signal:t.signal}))if(r.event===`turn`){let{speaker:e,text:t,startSec:n,endSec:a}=r.data;s[r.data.index]={speaker:e,text:t,startSec:n,endSec:a},i([...s])}else if(r.event===`tool_call`){let{name:e,arguments:t,status:n,latencyMs:i,error:a,at:s}=r.data;l[r.data.index]={name:e,arguments:t,status:n,latencyMs:i,error:a,at:s},o([...l])}else{let{status:e,latency:t}=r.data;n(n=>n&&{...n,status:e,...t?{latency:t}:{}})}await a(),c(e=>e+1)}catch(e){t.signal.aborted||u(e)}})(),()=>{t.abort(),r&&URL.revokeObjectURL(r)}},[e]),l)return B`<h1>Call</h1><${J} error=${l} /><p><a href="#/calls">All calls</a></p>`;if(!t)return B`<h1>Call</h1><p>Loading…</p>`;let v=t.evidence??{},y=e=>Object.values(v).flatMap(t=>t&&t.turn===e?[t.quote]:[]);async function b(){f(null);try{n(await q().cancelCall(e))}catch(e){f(e)}}function x(e){let t=_.current;t&&(t.currentTime=r[e].startSec,g(e))}function S(){let e=_.current?.currentTime??0;g(r.findIndex(t=>e>=t.startSec&&e<t.endSec))}return B`
    <h1>Call to ${t.to}</h1>
    <p class="status-line"><${X} status=${t.status} />
      ${Y(t.status)?B`<button type="button" class="danger" onClick=${b}>Cancel call</button>`:null}
    </p>
    <${J} error=${d} />
    <dl class="record">
      <dt>Objective</dt><dd>${t.objective}</dd>
      <dt>Started</dt><dd>${Z(t.startedAt)}</dd>
      <dt>Ended</dt><dd>${Z(t.endedAt)}</dd>
      <dt>Duration</dt><dd>${$t(t.durationSec)}</dd>
      <dt>Answered by</dt><dd>${t.answeredBy??`—`}</dd>
      <dt>Voice, language</dt><dd>${t.voice}, ${t.language}</dd>
      ${t.endReason?B`<dt>Ended by</dt><dd><code>${t.endReason}</code></dd>`:null}
      ${t.holdSec?B`<dt>On hold</dt><dd>${$t(t.holdSec)}</dd>`:null}
      ${t.transferredTo?B`<dt>Transferred</dt><dd>to ${t.transferredTo}, ${Z(t.transferredAt)}</dd>`:null}
      ${t.batchId?B`<dt>Batch</dt><dd><a href=${`#/calls?batch=${t.batchId}`}>${t.batchId}</a></dd>`:null}
      ${t.error?B`<dt>Error</dt><dd><code>${t.error}</code></dd>`:null}
      ${t.summary?B`<dt>Summary</dt><dd>${t.summary}</dd>`:null}
    </dl>

    ${t.extracted&&Object.keys(t.extracted).length>0?B`
          <h2>Extracted</h2>
          <dl class="extracted">
            ${Object.entries(t.extracted).map(([e,t])=>B`
                <dt>${e}</dt>
                <dd>
                  <strong>${t===null?`—`:String(t)}</strong>
                  ${v[e]?B` <button type="button" class="link" onClick=${()=>x(v[e].turn)}>“${v[e].quote}” (turn ${v[e].turn+1})</button>`:null}
                </dd>
              `)}
          </dl>
        `:null}

    <h2>Conversation</h2>
    ${p?B`<audio ref=${_} controls src=${p} onTimeUpdate=${S} aria-label="Recording of the call"></audio>`:null}
    ${r.length===0?B`<p class="empty">${Y(t.status)?`Nothing said yet.`:`No conversation: the call was not answered.`}</p>`:B`<ol class="turns">
          ${r.map((e,t)=>B`
              <li class=${`turn ${e.speaker}${t===h?` current`:``}`} data-turn=${t}>
                <button type="button" class="turn-button" onClick=${()=>x(t)} aria-current=${t===h?`true`:void 0}>
                  <span class="who">${e.speaker===`agent`?`Agent`:`Callee`} · ${en(e.startSec)}</span>
                  <span class="said">${hn(e.text,y(t))}</span>
                </button>
              </li>
            `)}
        </ol>`}

    ${t.tools||a.length>0?B`<${mn} uses=${a} live=${Y(t.status)} />`:null}

    ${t.latency?B`<${_n} latency=${t.latency} />`:null}

    <${pn} source=${{list:()=>q().listCallEvents(e),redeliver:t=>q().redeliverEvent(e,t)}} version=${s} />
    <p><a href="#/calls">All calls</a></p>
  `}var yn=[{name:`to`,required:!0,kind:`text`,maxLength:null,description:"Destination in E.164 format, for example `+14155550123`; must be a valid number for its country."},{name:`objective`,required:!0,kind:`textarea`,maxLength:4e3,description:`What the AI should accomplish; a clear plain-text goal. At most 4000 characters.`},{name:`context`,required:!1,kind:`textarea`,maxLength:1e4,description:`Background for the AI; not shared with the recipient. At most 10000 characters.`},{name:`fields`,required:!1,kind:`json`,maxLength:null,description:`Up to 20 fields to extract from the transcript after the call. Names must be unique.`},{name:`webhookUrl`,required:!1,kind:`textarea`,maxLength:2048,description:`Absolute HTTPS URL with a public host and no credentials, receiving signed events. (Plain http and loopback hosts are accepted only when the service runs with SVC_WEBHOOK_ALLOW_PRIVATE=1, for local development.)`},{name:`callerId`,required:!1,kind:`text`,maxLength:null,description:`Caller ID override in E.164; must be a number on the account. Default, the key's caller id, then the account's.`},{name:`voice`,required:!1,kind:`text`,maxLength:64,description:"Voice name the AI uses. Default, the key's voice, then the platform default (`alloy`). Must be a voice of the configured agent, matched case-insensitively; the agents offer `alloy`, `ash`, `ballad`, `coral`, `echo`, `sage`, `shimmer`, `verse`, `marin` and `cedar` (OpenAI's realtime voices; `marin` and `cedar` sound best on the GA model)."},{name:`language`,required:!1,kind:`text`,maxLength:35,description:"A BCP-47 code (canonicalised, `en-us` becomes `en-US`), or `auto` to mirror whoever answers. When omitted, inferred from objective and context, falling back to `auto`."},{name:`metadata`,required:!1,kind:`pairs`,maxLength:null,description:`Your own key-value pairs for this call (an order id, a campaign), returned unchanged on the call record, in list items and in every webhook event. At most 50 keys of 1 to 40 characters; each value a string of at most 500 characters. Never sent to the carrier, the voice model or the analyst.`},{name:`voicemail`,required:!1,kind:`json`,maxLength:null,description:"What to do when an answering machine picks up. `hangup` (the default, as in v1): hang up at once. `leave_message`:\nwait for the greeting to end (the beep), speak `message` in the call's language and voice, then hang up.\nEither way the call ends `voicemail`; with a message left its record says `voicemailLeft: true`, its turns and\nrecording hold the message, and the time connected to the machine is billed."},{name:`startAt`,required:!1,kind:`text`,maxLength:null,description:"When to dial, as an ISO 8601 date-time with its offset, at most 30 days ahead; a time already past means now. The call stays `queued` until then (it can be canceled meanwhile, and holds its reserved minute of the plan), and its record shows `scheduledAt`."},{name:`redial`,required:!1,kind:`json`,maxLength:null,description:`Try again when nobody takes the call (see RedialPolicy).`},{name:`callingWindow`,required:!1,kind:`json`,maxLength:null,description:`The hours, in the callee's own time, in which the call may be dialled; without it, the key's default window
(if it has one) applies, and with neither the call is dialled whenever it is due. Without \`timeZone\` the
window is read in the zones Google's libphonenumber places the number in (by its prefix); for a number
spanning several zones (a US toll-free number, parts of Idaho, Western Australia's 08) it is the time the
window is open in all of them. The call is dialled only inside the window, checked again just before each
dial: outside it, it waits \`queued\` for the next opening (its \`scheduledAt\`), and so does a redial. The
window bounds when the call is dialled; a call dialled just before the end may run past it (at most the
maximum call duration).`},{name:`machineDetection`,required:!1,kind:`text`,maxLength:null,description:"Whether the carrier listens for an answering machine when the call is picked up (`on`, the default, or the\nkey's default when it has one). A machine is hung up on (or left the `voicemail` message) only once it is\nconfirmed: the greeting ended in a beep or silence, or the agent heard a voicemail greeting; a callee who\nanswers the agent is a person whatever the detection guessed. `off`: no detection is asked for, whoever\npicks up is taken to have answered (`answeredBy: unknown`), and the agent talks to them, for programmes\nthat never meet machines. With `off`, `voicemail` has nothing to act on."},{name:`onBehalfOf`,required:!1,kind:`text`,maxLength:200,description:`Whom the agent calls for, as it says so to the callee ("I'm calling on behalf of Tony's Pizzeria"), 1 to 200
characters. Default, the key's (set with \`svc keys update --on-behalf-of\`); with neither, the agent says it
calls on behalf of a customer. Told to the voice model, never to the carrier.`},{name:`recordingNotice`,required:!1,kind:`boolean`,maxLength:null,description:"Whether the agent tells the callee, as it introduces itself, that the call is recorded (every call is).\nDefault, the key's setting (`svc keys update --recording-notice off`), else `true`. Turn it off only where\nthe law allows a recorded call without telling the person called."},{name:`sendDigits`,required:!1,kind:`text`,maxLength:null,description:"Keys to press as soon as the call is answered, to reach a known extension or get past a menu whose keys\nyou know (`1234#`, `ww2`): `0`-`9`, `*` and `#`, with `w` for a half-second pause and `W` for a whole\nsecond; 1 to 32 characters. On Twilio they are its `SendDigits` on the dial; the sandbox accepts and\nrecords them without pressing them (its menus are the agent's to answer). Kept on the call record. A\nmenu whose choices must be heard first is the agent's to answer: it presses keys itself as the call goes."},{name:`tools`,required:!1,kind:`json`,maxLength:null,description:"Up to 10 of your own tools the agent may use during the call, beside svc's own (hanging up, the\nopt-out, …): each is offered to the voice model by its name, description and parameters, and when the\nmodel calls one, svc POSTs a ToolRequest to its `url`, signed as webhooks are (`X-SVC-Signature` with the\nkey's webhook secret), and gives the model your JSON answer as the function's output. An answer that is\nnot a 2xx, not JSON, larger than 16 KiB or later than `timeoutMs` is given to the model as\n`{ \"error\": <why> }`, and the call goes on. Every use is on the record (`toolCalls`). Names must differ\nand must not be one of svc's own tools' names."},{name:`transfer`,required:!1,kind:`json`,maxLength:null,description:"Lets the agent hand the call over to a person at another number, when the condition `when` is met: the\nagent says it is transferring and leaves the call. `cold`: the carrier connects the callee to `to` at once.\n`warm`: the agent first calls `to` while the callee holds, the person who answers hears a briefing the agent\nwrote (who is on the line, why, what was learnt) and presses 1 to take the call; the agent then tells the\ncallee it is connecting them, joins the two and leaves. Nobody taking it (no answer, declined, failed): the\nagent tells the callee and carries on, or ends the call politely. `to` passes the same guardrails as the\nnumber called (countries, premium rate and IRSF, the do-not-call list) and is dialled from the call's\ncaller id. A transferred call ends `completed` when the agent leaves; its record says to whom and when\n(`transferredTo`, `transferredAt`), and `durationSec`, the recording and billing end there."},{name:`hold`,required:!1,kind:`json`,maxLength:null,description:`How long the agent waits when it is put on hold (see HoldPolicy); without it, 600 s.`}],bn={name:``,description:``,parameters:``,url:``,timeoutMs:``};function xn(e){return e.map((e,t)=>{let n={};for(let t of[`name`,`description`,`url`])e[t].trim()!==``&&(n[t]=e[t].trim());if(e.parameters.trim()!==``)try{n.parameters=JSON.parse(e.parameters)}catch{throw Error(`tools: the parameters of tool ${t+1} are not valid JSON.`)}return e.timeoutMs.trim()!==``&&(n.timeoutMs=Number(e.timeoutMs)),n})}var Sn=[{key:`name`,label:`name`,hint:`The function name the model sees: letters, digits, _ or -.`,example:`order_status`,required:!0},{key:`description`,label:`description`,hint:`What it does and when to use it, for the model.`,example:`Looks up where an order is.`,required:!0},{key:`parameters`,label:`parameters`,hint:`JSON Schema of type object. Without it the tool takes no arguments.`,example:`{ "type": "object", "properties": { "question": { "type": "string" } } }`,kind:`textarea`},{key:`url`,label:`url`,hint:`Where svc POSTs each use, signed as webhooks are.`,example:`https://example.com/tools/orders`,required:!0,kind:`url`},{key:`timeoutMs`,label:`timeoutMs`,hint:`100 to 20000; 5000 when empty.`,example:`5000`,kind:`number`}];function Cn({tools:e,onChange:t,description:n}){let r=(n,r)=>i=>t(e.map((e,t)=>t===n?{...e,[r]:i.target.value}:e));return B`
    <fieldset class="tools" aria-describedby="h-tools">
      <legend>tools</legend>
      <small id="h-tools">${n}</small>
      ${e.map((n,i)=>B`
          <fieldset class="tool" data-tool=${i}>
            <legend>Tool ${i+1}</legend>
            ${Sn.map(e=>{let t=`tool-${i}-${e.key}`,a={id:t,name:t,value:n[e.key],placeholder:e.example,"aria-describedby":`${t}-hint`};return B`<div class="field">
                <label for=${t}>${e.label}${e.required?B` <span aria-hidden="true">*</span>`:``}</label>
                ${e.kind===`textarea`?B`<textarea ...${a} rows="3" onInput=${r(i,e.key)}></textarea>`:B`<input ...${a} type=${e.kind===`number`?`number`:e.kind===`url`?`url`:`text`} min=${e.kind===`number`?100:void 0} max=${e.kind===`number`?2e4:void 0} required=${e.required??!1} onInput=${r(i,e.key)} />`}
                <small id=${`${t}-hint`}>${e.hint}</small>
              </div>`})}
            <button type="button" class="secondary" aria-label=${`Remove tool ${i+1}`} onClick=${()=>t(e.filter((e,t)=>t!==i))}>Remove</button>
          </fieldset>
        `)}
      ${e.length<10?B`<button type="button" class="secondary" onClick=${()=>t([...e,{...bn}])}>Add a tool</button>`:null}
    </fieldset>
  `}var wn={to:`+14155550123`,objective:`Ask whether the shop is open on Sunday and until what time.`,webhookUrl:`https://example.com/hooks/svc`,language:`en-US`,voice:`alloy`,metadata:`order_id=8841`,callingWindow:`{ "start": "09:00", "end": "20:00", "days": ["mon", "tue", "wed", "thu", "fri"] }`,fields:`[{ "name": "open_sunday", "type": "boolean" }]`,voicemail:`{ "action": "leave_message", "message": "Please call us back." }`,redial:`{ "onNoAnswer": 2, "afterMinutes": 30 }`,startAt:`2026-12-01T09:30:00+01:00`,onBehalfOf:`Tony's Pizzeria`,sendDigits:`1234#`,transfer:`{ "to": "+14155550142", "mode": "warm", "when": "the callee asks to speak to a person" }`,hold:`{ "maxWaitSec": 300 }`},Q=class extends Error{};function Tn(e,t){let n={};if(t.length>0)try{n.tools=xn(t)}catch(e){throw new Q(e.message)}for(let t of yn){if(t.name===`tools`)continue;let r=(e[t.name]??``).trim();if(r!==``){if(t.kind===`json`)try{n[t.name]=JSON.parse(r)}catch{throw new Q(`${t.name} is not valid JSON.`)}else t.kind===`boolean`?n[t.name]=r===`true`:t.kind===`pairs`?n[t.name]=Object.fromEntries(r.split(`
`).filter(e=>e.trim()).map(e=>{let t=e.indexOf(`=`);if(t<1)throw new Q(`metadata: "${e}" is not key=value.`);return[e.slice(0,t).trim(),e.slice(t+1).trim()]})):n[t.name]=r}}return n}function En(){let[e,t]=L({}),[n,r]=L([]),[i,a]=L(null),[o,s]=L(null),[c,l]=L(!1);document.title=`Place a call · svc console`;let u=n=>r=>{t({...e,[n]:r.target.value}),a(null)};async function d(t){l(!0),s(null);try{let r=Tn(e,n);if(t){let e=await q().placeCall(r);location.hash=`#/calls/${e.callId}`}else a(await q().preflightCall(r))}catch(e){a(null),s(e instanceof Q?{token:`invalid_form`,message:e.message}:e)}finally{l(!1)}}return B`
    <h1>Place a call</h1>
    <form class="place" onSubmit=${e=>(e.preventDefault(),d(!0))}>
      ${yn.map(t=>t.name===`tools`?B`<${Cn}
              tools=${n}
              description=${t.description.split(`
`)[0]}
              onChange=${e=>{r(e),a(null)}}
            />`:B`
          <div class="field">
            <label for=${`f-${t.name}`}>${t.name}${t.required?B` <span aria-hidden="true">*</span>`:``}</label>
            ${t.kind===`boolean`?B`<select id=${`f-${t.name}`} name=${t.name} value=${e[t.name]??``} onChange=${u(t.name)} aria-describedby=${`h-${t.name}`}>
                  <option value="">default</option>
                  <option value="true">yes</option>
                  <option value="false">no</option>
                </select>`:t.kind===`text`?B`<input id=${`f-${t.name}`} name=${t.name} type="text" required=${t.required} maxLength=${t.maxLength??void 0} placeholder=${wn[t.name]??``} value=${e[t.name]??``} onInput=${u(t.name)} aria-describedby=${`h-${t.name}`} />`:B`<textarea id=${`f-${t.name}`} name=${t.name} rows=${t.kind===`textarea`?3:2} required=${t.required} placeholder=${wn[t.name]??``} value=${e[t.name]??``} onInput=${u(t.name)} aria-describedby=${`h-${t.name}`}></textarea>`}
            <small id=${`h-${t.name}`}>${t.kind===`json`?`JSON. `:t.kind===`pairs`?`One key=value a line. `:``}${t.description.split(`
`)[0]}</small>
          </div>
        `)}
      <div class="actions">
        <button type="button" class="secondary" disabled=${c} onClick=${()=>d(!1)}>Preflight</button>
        <button type="submit" disabled=${c}>Place call</button>
      </div>
    </form>
    <${J} error=${o} />
    ${i?B`<section class="verdict" aria-live="polite">
          <h2>Preflight: it would be placed</h2>
          <dl>
            ${Object.entries(i).map(([e,t])=>B`<dt>${e}</dt><dd>${t===null?`—`:typeof t==`object`?JSON.stringify(t):String(t)}</dd>`)}
          </dl>
        </section>`:null}
  `}var Dn=[`queued`,`running`,`paused`],On=[`completed`,`no_answer`,`voicemail`,`declined`,`failed`,`canceled`];function kn({batch:e}){let t=e.counts,n=On.reduce((e,n)=>e+(t[n]??0),0);return B`
    <label>
      ${n} of ${e.total} calls ended
      <progress max=${e.total} value=${n}>${n} of ${e.total}</progress>
    </label>
    <p class="counts">${Object.entries(t).filter(([,e])=>e>0).map(([e,t])=>`${e.replace(`_`,` `)} ${t}`).join(` · `)}</p>
  `}function An(){let[e,t]=L(null),[n,r]=L(null);document.title=`Batches · svc console`;let i=()=>q().listBatches({limit:50}).then(e=>t(e.batches)).catch(r);R(()=>{i();let e=setInterval(()=>void i(),3e3);return()=>clearInterval(e)},[]);async function a(e){try{await q().cancelBatch(e),await i()}catch(e){r(e)}}return B`
    <h1>Batches</h1>
    <${J} error=${n} />
    ${e===null?B`<p>Loading…</p>`:e.length===0?B`<${tn}>No batches yet. Create one with <code>POST /v1/agent/batches</code> or the SDK's <code>createBatch</code>.<//>`:B`<ul class="batches">
            ${e.map(e=>B`<li class="batch" data-batch=${e.id}>
                <div class="batch-head">
                  <${X} status=${e.status} />
                  <a href=${`#/calls?batch=${e.id}`}>${e.id.slice(0,8)}</a>
                  <span>${Z(e.createdAt)}</span>
                  ${e.stopReason?B`<span>(${e.stopReason})</span>`:null}
                  <a href=${`#/batches/${e.id}`} aria-label=${`Events of batch ${e.id.slice(0,8)}`}>Events</a>
                  ${Dn.includes(e.status)?B`<button type="button" class="danger" onClick=${()=>a(e.id)}>Cancel batch</button>`:null}
                </div>
                <${kn} batch=${e} />
              </li>`)}
          </ul>`}
  `}function jn({id:e}){let[t,n]=L(null),[r,i]=L(null),[a,o]=L(null);document.title=`Batch ${e.slice(0,8)} · svc console`;let s=t!==null&&Dn.includes(t.status),c=()=>q().getBatch(e).then(n).catch(i);if(R(()=>void c(),[e]),R(()=>{if(!s)return;let e=setInterval(()=>void c(),3e3);return()=>clearInterval(e)},[e,s]),r)return B`<h1>Batch</h1><${J} error=${r} /><p><a href="#/batches">All batches</a></p>`;if(!t)return B`<h1>Batch</h1><p>Loading…</p>`;async function l(){o(null);try{n(await q().cancelBatch(e))}catch(e){o(e)}}return B`
    <h1>Batch ${e.slice(0,8)}</h1>
    <p class="status-line"><${X} status=${t.status} />
      ${s?B`<button type="button" class="danger" onClick=${l}>Cancel batch</button>`:null}
    </p>
    <${J} error=${a} />
    <dl class="record">
      <dt>Created</dt><dd>${Z(t.createdAt)}</dd>
      <dt>Started</dt><dd>${Z(t.startedAt)}</dd>
      <dt>Ended</dt><dd>${Z(t.endedAt)}</dd>
      ${t.stopReason?B`<dt>Stop reason</dt><dd><code>${t.stopReason}</code></dd>`:null}
      <dt>Calls</dt><dd><a href=${`#/calls?batch=${t.id}`}>The batch's calls</a></dd>
    </dl>
    <${kn} batch=${t} />
    <${pn} source=${{list:()=>q().listBatchEvents(e),redeliver:t=>q().redeliverBatchEvent(e,t)}} version=${+!s} />
    <p><a href="#/batches">All batches</a></p>
  `}function Mn(){let[e,t]=L(null),[n,r]=L(null),[i,a]=L(``),[o,s]=L(``),[c,l]=L(null);document.title=`Do-not-call list · svc console`;let u=async e=>{try{let n=await q().listDoNotCall({limit:50,...e?{after:e}:{}});t(t=>e?[...t??[],...n.numbers]:n.numbers),r(n.nextAfter??null)}catch(e){l(e)}};R(()=>void u(),[]);async function d(e){e.preventDefault(),l(null);try{await q().addDoNotCall(i.trim(),o.trim()?{reason:o.trim()}:{}),a(``),s(``),await u()}catch(e){l(e)}}async function f(e){l(null);try{await q().removeDoNotCall(e),await u()}catch(e){l(e)}}return B`
    <h1>Do-not-call list</h1>
    <form class="inline" onSubmit=${d}>
      <label for="dnc-number">Number</label>
      <input id="dnc-number" type="text" required placeholder="+14155550123" value=${i} onInput=${e=>a(e.target.value)} />
      <label for="dnc-reason">Reason</label>
      <input id="dnc-reason" type="text" placeholder="asked not to be called" value=${o} onInput=${e=>s(e.target.value)} />
      <button type="submit">Add</button>
    </form>
    <${J} error=${c} />
    ${e===null?B`<p>Loading…</p>`:e.length===0?B`<${tn}>The list is empty: every number may be called.<//>`:B`<div class="table-wrap"><table>
            <thead><tr><th scope="col">Number</th><th scope="col">Reason</th><th scope="col">Source</th><th scope="col">Added</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
            <tbody>
              ${e.map(e=>B`<tr data-number=${e.number}>
                  <td>${e.number}</td><td>${e.reason??`—`}</td><td>${e.source}</td><td>${Z(e.addedAt)}</td>
                  <td><button type="button" class="secondary" onClick=${()=>f(e.number)} aria-label=${`Remove ${e.number}`}>Remove</button></td>
                </tr>`)}
            </tbody>
          </table></div>`}
    ${n?B`<button type="button" class="secondary" onClick=${()=>u(n)}>More</button>`:null}
  `}var Nn=864e5,Pn=[7,30,90],Fn=(e,t=Date.now())=>Math.floor(t/Nn)*Nn-(e-1)*Nn,In=e=>e===null?`—`:`${Math.round(e*1e3)/10}%`,Ln=e=>e===null?`—`:`${e} ms`,Rn=e=>e.replace(`_`,` `),$=e=>new Date(`${e}T00:00:00Z`).toLocaleDateString(void 0,{month:`short`,day:`numeric`,timeZone:`UTC`});function zn({caption:e,what:t,counts:n,total:r,link:i}){return B`
    <div class="table-wrap">
      <table>
        <caption class="visually-hidden">${e}</caption>
        <thead><tr><th scope="col">${t}</th><th scope="col" class="num">Calls</th><th scope="col" class="num">Share</th></tr></thead>
        <tbody>
          ${Object.entries(n).map(([e,t])=>B`
              <tr key=${e}>
                <th scope="row"><a href=${i(e)}>${e===`none`?`no one`:Rn(e)}</a></th>
                <td class="num">${t}</td>
                <td class="num">${r===0?`—`:`${Math.round(t/r*100)}%`}</td>
              </tr>
            `)}
        </tbody>
      </table>
    </div>
  `}function Bn({perDay:e}){let t=Math.max(0,...e.map(e=>e.calls)),n=Math.max(1,t),r=e[0],i=e.at(-1);return B`
    <figure class="per-day" aria-labelledby="per-day-title">
      <h2 id="per-day-title">Calls per day</h2>
      <ol class="bars" aria-hidden="true">
        ${e.map(e=>B`<li key=${e.date} title=${`${$(e.date)}: ${e.calls}`}><span class="bar" style=${{height:`${e.calls/n*100}%`}}></span></li>`)}
      </ol>
      <div class="bars-axis" aria-hidden="true"><span>${r?$(r.date):``}</span><span>most in a day: ${t}</span><span>${i?$(i.date):``}</span></div>
      <details>
        <summary>Calls per day as a table</summary>
        <div class="table-wrap">
          <table>
            <thead><tr><th scope="col">Day (UTC)</th><th scope="col" class="num">Calls</th></tr></thead>
            <tbody>${e.map(e=>B`<tr key=${e.date}><td>${e.date}</td><td class="num">${e.calls}</td></tr>`)}</tbody>
          </table>
        </div>
      </details>
    </figure>
  `}function Vn(){let[e,t]=L(30),[n,r]=L(null),[i,a]=L(null);document.title=`Overview · svc console`,R(()=>{let t=new AbortController;return r(null),q().getStats({createdFrom:new Date(Fn(e)).toISOString(),signal:t.signal}).then(e=>{r(e),a(null)}).catch(e=>t.signal.aborted||a(e)),()=>t.abort()},[e]);let o=new Date(Fn(e)).toISOString(),s=e=>`#/calls?${e}&from=${encodeURIComponent(o)}`,c=n,l=c?.minutes.plan;return B`
    <h1>Overview</h1>
    <fieldset class="period">
      <legend>Period</legend>
      ${Pn.map(n=>B`
          <label key=${n}>
            <input type="radio" name="period" value=${n} checked=${e===n} onChange=${()=>t(n)} />
            Last ${n} days
          </label>
        `)}
    </fieldset>
    <${J} error=${i} />
    ${c===null?i?null:B`<p aria-live="polite">Loading…</p>`:B`
          <p class="counts" aria-live="polite">${c.calls} calls from ${$(c.perDay[0]?.date??c.periodStart.slice(0,10))} to today (days in UTC).</p>
          <dl class="figures">
            <div><dt>Calls</dt><dd data-figure="calls">${c.calls}</dd></div>
            <div><dt>Answer rate</dt><dd data-figure="answer-rate">${In(c.answerRate)}<small>of calls dialled to an end</small></dd></div>
            <div><dt>Completion rate</dt><dd data-figure="completion-rate">${In(c.completionRate)}<small>ended completed</small></dd></div>
            <div><dt>Minutes billed</dt><dd data-figure="minutes">${c.minutes.billed}<small>in this period</small></dd></div>
            <div>
              <dt>Plan this month</dt>
              <dd data-figure="plan">
                ${l.usedMinutes} of ${l.planMinutes} min
                <small>${l.reservedMinutes} reserved by calls in flight</small>
                <meter min="0" max=${l.planMinutes} value=${l.usedMinutes} aria-label="Plan minutes used">${l.usedMinutes} of ${l.planMinutes}</meter>
              </dd>
            </div>
            <div><dt>Turn latency p50 / p95</dt><dd data-figure="latency">${Ln(c.latency.p50Ms)} / ${Ln(c.latency.p95Ms)}<small>over ${c.latency.calls} calls with timed turns</small></dd></div>
            <div><dt>Webhook deliveries failed / gone</dt><dd data-figure="webhooks">${c.webhooks.failed} / ${c.webhooks.gone}</dd></div>
          </dl>
          <${Bn} perDay=${c.perDay} />
          <div class="split">
            <section aria-labelledby="by-status">
              <h2 id="by-status">Outcomes</h2>
              <${zn} caption="Calls by status" what="Status" counts=${c.byStatus} total=${c.calls} link=${e=>s(`status=${e}`)} />
            </section>
            <section aria-labelledby="by-answered">
              <h2 id="by-answered">Answered by</h2>
              <${zn} caption="Calls by who answered" what="Answered by" counts=${c.byAnsweredBy} total=${c.calls} link=${e=>s(`answeredBy=${e}`)} />
            </section>
          </div>
          <section aria-labelledby="errors">
            <h2 id="errors">Commonest errors</h2>
            ${c.errors.length===0?B`<p class="empty">No call of this period ended with an error.</p>`:B`
                  <div class="table-wrap">
                    <table>
                      <thead><tr><th scope="col">Error</th><th scope="col" class="num">Calls</th></tr></thead>
                      <tbody>${c.errors.map(e=>B`<tr key=${e.error}><td><code>${e.error}</code></td><td class="num">${e.calls}</td></tr>`)}</tbody>
                    </table>
                  </div>
                `}
          </section>
        `}
  `}var Hn={mon:`Mon`,tue:`Tue`,wed:`Wed`,thu:`Thu`,fri:`Fri`,sat:`Sat`,sun:`Sun`};function Un(e){if(!e)return`None: calls are dialled at any time`;let t=e.days?.length?e.days.map(e=>Hn[e]??e).join(`, `):`every day`;return`${e.start}–${e.end}, ${t}, ${e.timeZone?`in ${e.timeZone}`:`in the called number's time zone`}`}var Wn=e=>new Date(e).toLocaleDateString(void 0,{year:`numeric`,month:`short`,day:`numeric`,timeZone:`UTC`});function Gn(){let[e,t]=L(null),[n,r]=L(null);return document.title=`Settings · svc console`,R(()=>{let e=new AbortController;return q().getSettings({signal:e.signal}).then(t).catch(t=>e.signal.aborted||r(t)),()=>e.abort()},[]),B`
    <h1>Settings</h1>
    <${J} error=${n} />
    ${e===null?n?null:B`<p>Loading…</p>`:B`
          <section aria-labelledby="key-defaults">
            <h2 id="key-defaults">This key and its defaults</h2>
            <dl class="settings" data-section="key">
              <dt>Key</dt><dd>${e.key.name} (<code>${e.key.hint}</code>)</dd>
              <dt>Caller id</dt><dd data-setting="callerId">${e.key.callerId??`${e.account.defaultCallerId??`none`} (the account's default)`}</dd>
              <dt>Voice</dt><dd data-setting="voice">${e.key.voice??`${e.defaultVoice} (the service's default)`}</dd>
              <dt>Calling window</dt><dd data-setting="callingWindow">${Un(e.key.callingWindow)}</dd>
              <dt>Answering-machine detection</dt><dd data-setting="machineDetection">${e.key.machineDetection}</dd>
              <dt>On behalf of</dt><dd data-setting="onBehalfOf">${e.key.onBehalfOf??`a customer (not named)`}</dd>
              <dt>Recording notice</dt><dd data-setting="recordingNotice">${e.key.recordingNotice?`the agent says the call is recorded`:`off`}</dd>
            </dl>
          </section>
          <section aria-labelledby="plan">
            <h2 id="plan">Plan and usage</h2>
            <dl class="settings" data-section="plan">
              <dt>Billing period</dt><dd>${Wn(e.plan.periodStart)} to ${Wn(e.plan.periodEnd)} (UTC)</dd>
              <dt>Minutes used</dt>
              <dd data-setting="usage">
                ${e.plan.usedMinutes} of ${e.plan.planMinutes}, ${e.plan.reservedMinutes} reserved by calls in flight
                <meter min="0" max=${e.plan.planMinutes} value=${e.plan.usedMinutes+e.plan.reservedMinutes} aria-label="Plan minutes used and reserved"></meter>
              </dd>
              <dt>Account</dt><dd>${e.account.name}</dd>
              <dt>Numbers (caller ids)</dt><dd data-setting="numbers">${e.account.numbers.join(`, `)||`none`}</dd>
            </dl>
          </section>
          <section aria-labelledby="webhooks">
            <h2 id="webhooks">Webhook signing secret</h2>
            <p>
              Fingerprint <code data-setting="fingerprint">${e.webhookSecretFingerprint}</code>: the first 8 hex digits of the
              secret's SHA-256, to check that a receiver holds this key's current secret (for example, <code>printf %s "$SVC_WEBHOOK_SECRET" | sha256sum | cut -c1-8</code>).
              The secret itself is never shown here.
            </p>
          </section>
          <section aria-labelledby="voices">
            <h2 id="voices">Voices</h2>
            <p data-setting="voices">${e.voices.join(`, `)}</p>
          </section>
          <section aria-labelledby="keys">
            <h2 id="keys">Managing keys</h2>
            <p class="note">
              Keys are created, changed, rotated and revoked with the command line, <code>npx svc keys …</code>, on
              the service's host, not here. A new key's secret is shown once, and a page in a browser is the wrong
              place to show it; and a key signed in here cannot safely revoke or rotate keys, its own included, which
              would sign this page out or leave it acting with a key that no longer works. This page only reads.
            </p>
          </section>
        `}
  `}var Kn=()=>location.hash.replace(/^#\/?/,``)||`overview`;function qn(){let[e,t]=L(Kn()),[n,r]=L(qt()!==null);if(R(()=>{let e=()=>t(Kn());return window.addEventListener(`hashchange`,e),()=>window.removeEventListener(`hashchange`,e)},[]),!n)return B`<${nn} onSignedIn=${()=>r(!0)} />`;let[i,a]=e.split(`?`)[0].split(`/`),o=i===`calls`&&a?B`<${vn} id=${decodeURIComponent(a)} />`:i===`place`?B`<${En} />`:i===`batches`&&a?B`<${jn} id=${decodeURIComponent(a)} />`:i===`batches`?B`<${An} />`:i===`do-not-call`?B`<${Mn} />`:i===`settings`?B`<${Gn} />`:i===`calls`?B`<${dn} key=${e} />`:B`<${Vn} />`;return B`
    <header>
      <span class="brand">svc console</span>
      <nav aria-label="Sections">
        ${[[`overview`,`Overview`],[`calls`,`Calls`],[`place`,`Place a call`],[`batches`,`Batches`],[`do-not-call`,`Do-not-call list`],[`settings`,`Settings`]].map(([e,t])=>B`<a href=${`#/${e}`} aria-current=${i===e?`page`:void 0}>${t}</a>`)}
      </nav>
      <button
        type="button"
        class="secondary"
        onClick=${()=>{Yt(),location.hash=``,r(!1)}}
      >
        Sign out
      </button>
    </header>
    <main>${o}</main>
  `}de(B`<${qn} />`,document.getElementById(`app`));