(function(){let e=document.createElement(`link`).relList;if(e&&e.supports&&e.supports(`modulepreload`))return;for(let e of document.querySelectorAll(`link[rel="modulepreload"]`))n(e);new MutationObserver(e=>{for(let t of e)if(t.type===`childList`)for(let e of t.addedNodes)e.tagName===`LINK`&&e.rel===`modulepreload`&&n(e)}).observe(document,{childList:!0,subtree:!0});function t(e){let t={};return e.integrity&&(t.integrity=e.integrity),e.referrerPolicy&&(t.referrerPolicy=e.referrerPolicy),t.credentials=e.crossOrigin===`use-credentials`?`include`:e.crossOrigin===`anonymous`?`omit`:`same-origin`,t}function n(e){if(e.ep)return;e.ep=!0;let n=t(e);fetch(e.href,n)}})();var e,t,n,r,i,a,o,s,c,l,u,d,f,p,m={},h=[],g=/acit|ex(?:s|g|n|p|$)|rph|grid|ows|mnc|ntw|ine[ch]|zoo|^ord|itera/i,_=Array.isArray;function v(e,t){for(var n in t)e[n]=t[n];return e}function y(e){e&&e.parentNode&&e.parentNode.removeChild(e)}function b(t,n,r){var i,a,o,s={};for(o in n)o==`key`?i=n[o]:o==`ref`?a=n[o]:s[o]=n[o];if(arguments.length>2&&(s.children=arguments.length>3?e.call(arguments,2):r),typeof t==`function`&&t.defaultProps!=null)for(o in t.defaultProps)s[o]===void 0&&(s[o]=t.defaultProps[o]);return x(t,s,i,a,null)}function x(e,r,i,a,o){var s={type:e,props:r,key:i,ref:a,__k:null,__:null,__b:0,__e:null,__c:null,constructor:void 0,__v:o??++n,__i:-1,__u:0};return o==null&&t.vnode!=null&&t.vnode(s),s}function S(e){return e.children}function C(e,t){this.props=e,this.context=t}function w(e,t){if(t==null)return e.__?w(e.__,e.__i+1):null;for(var n;t<e.__k.length;t++)if((n=e.__k[t])!=null&&n.__e!=null)return n.__e;return typeof e.type==`function`?w(e):null}function T(e){if(e.__P&&e.__d){var n=e.__v,r=n.__e,i=[],a=[],o=v({},n);o.__v=n.__v+1,t.vnode&&t.vnode(o),ne(e.__P,o,n,e.__n,e.__P.namespaceURI,32&n.__u?[r]:null,i,r??w(n),!!(32&n.__u),a),o.__v=n.__v,o.__.__k[o.__i]=o,ie(i,o,a),n.__e=n.__=null,o.__e!=r&&E(o)}}function E(e){if((e=e.__)!=null&&e.__c!=null)return e.__e=e.__c.base=null,e.__k.some(function(t){if(t!=null&&t.__e!=null)return e.__e=e.__c.base=t.__e}),E(e)}function D(e){(!e.__d&&(e.__d=!0)&&r.push(e)&&!O.__r++||i!=t.debounceRendering)&&((i=t.debounceRendering)||a)(O)}function O(){try{for(var e,t=1;r.length;)r.length>t&&r.sort(o),e=r.shift(),t=r.length,T(e)}finally{r.length=O.__r=0}}function ee(e,t,n,r,i,a,o,s,c,l,u){var d,f,p,g,_,v,y=r&&r.__k||h,b=t.length;for(c=k(n,t,y,c,b),d=0;d<b;d++)(p=n.__k[d])!=null&&(f=p.__i!=-1&&y[p.__i]||m,p.__i=d,v=ne(e,p,f,i,a,o,s,c,l,u),g=p.__e,p.ref&&f.ref!=p.ref&&(f.ref&&se(f.ref,null,p),u.push(p.ref,p.__c||g,p)),_==null&&g!=null&&(_=g),4&p.__u?(c=A(p,c,e),f.__e&&(f.__e=null)):typeof p.type==`function`&&v!==void 0?c=v:g&&(c=g.nextSibling),p.__u&=-7);return n.__e=_,c}function k(e,t,n,r,i){var a,o,s,c,l,u=n.length,d=u,f=0;for(e.__k=Array(i),a=0;a<i;a++)(o=t[a])!=null&&typeof o!=`boolean`&&typeof o!=`function`?(typeof o==`string`||typeof o==`number`||typeof o==`bigint`||o.constructor==String?o=e.__k[a]=x(null,o,null,null,null):_(o)?o=e.__k[a]=x(S,{children:o},null,null,null):o.constructor===void 0&&o.__b>0?o=e.__k[a]=x(o.type,o.props,o.key,o.ref?o.ref:null,o.__v):e.__k[a]=o,c=a+f,o.__=e,o.__b=e.__b+1,s=null,(l=o.__i=te(o,n,c,d))!=-1&&(d--,(s=n[l])&&(s.__u|=2)),s==null||s.__v==null?(l==-1&&(i>u?f--:i<u&&f++),typeof o.type!=`function`&&(o.__u|=4)):l!=c&&(l==c-1?f--:l==c+1?f++:(l>c?f--:f++,o.__u|=4))):e.__k[a]=null;if(d)for(a=0;a<u;a++)(s=n[a])!=null&&!(2&s.__u)&&(s.__e==r&&(r=w(s)),ce(s,s));return r}function A(e,t,n){var r,i;if(typeof e.type==`function`){for(r=e.__k,i=0;r&&i<r.length;i++)r[i]&&(r[i].__=e,t=A(r[i],t,n));return t}e.__e!=t&&(t&&e.type&&!t.parentNode&&(t=w(e)),t=n.insertBefore(e.__e,t||null));do t&&=t.nextSibling;while(t!=null&&t.nodeType==8);return t}function te(e,t,n,r){var i,a,o,s=e.key,c=e.type,l=t[n],u=l!=null&&!(2&l.__u);if(l===null&&s==null||u&&s==l.key&&c==l.type)return n;if(r>+!!u){for(i=n-1,a=n+1;i>=0||a<t.length;)if((l=t[o=i>=0?i--:a++])!=null&&!(2&l.__u)&&s==l.key&&c==l.type)return o}return-1}function j(e,t,n){t[0]==`-`?e.setProperty(t,n??``):e[t]=n==null?``:typeof n!=`number`||g.test(t)?n:n+`px`}function M(e,t,n,r,i){var a,o;n:if(t==`style`){if(typeof n==`string`)e.style.cssText=n;else{if(typeof r==`string`&&(e.style.cssText=r=``),r)for(t in r)n&&t in n||j(e.style,t,``);if(n)for(t in n)r&&n[t]==r[t]||j(e.style,t,n[t])}}else if(t[0]==`o`&&t[1]==`n`)a=t!=(t=t.replace(u,`$1`)),o=t.toLowerCase(),t=o in e||t==`onFocusOut`||t==`onFocusIn`?o.slice(2):t.slice(2),e.l||={},e.l[t+a]=n,n?r?n[l]=r[l]:(n[l]=d,e.addEventListener(t,a?p:f,a)):e.removeEventListener(t,a?p:f,a);else{if(i==`http://www.w3.org/2000/svg`)t=t.replace(/xlink(H|:h)/,`h`).replace(/sName$/,`s`);else if(t!=`width`&&t!=`height`&&t!=`href`&&t!=`list`&&t!=`form`&&t!=`tabIndex`&&t!=`download`&&t!=`rowSpan`&&t!=`colSpan`&&t!=`role`&&t!=`popover`&&t in e)try{e[t]=n??``;break n}catch{}typeof n==`function`||(n==null||!1===n&&t[4]!=`-`?e.removeAttribute(t):e.setAttribute(t,t==`popover`&&n==1?``:n))}}function N(e){return function(n){if(this.l){var r=this.l[n.type+e];if(n[c]==null)n[c]=d++;else if(n[c]<r[l])return;return r(t.event?t.event(n):n)}}}function ne(e,n,r,i,a,o,s,c,l,u){var d,f,p,m,g,b,x,T,E,D,O,k,A,te,j,M,N=n.type;if(n.constructor!==void 0)return null;128&r.__u&&(l=!!(32&r.__u),o=[c=n.__e=r.__e]),(d=t.__b)&&d(n);n:if(typeof N==`function`){f=s.length;try{if(E=n.props,D=N.prototype&&N.prototype.render,O=(d=N.contextType)&&i[d.__c],k=d?O?O.props.value:d.__:i,r.__c?T=(p=n.__c=r.__c).__=p.__E:(D?n.__c=p=new N(E,k):(n.__c=p=new C(E,k),p.constructor=N,p.render=le),O&&O.sub(p),p.state||(p.state={}),p.__n=i,m=p.__d=!0,p.__h=[],p._sb=[]),D&&p.__s==null&&(p.__s=p.state),D&&N.getDerivedStateFromProps!=null&&(p.__s==p.state&&(p.__s=v({},p.__s)),v(p.__s,N.getDerivedStateFromProps(E,p.__s))),g=p.props,b=p.state,p.__v=n,m)D&&N.getDerivedStateFromProps==null&&p.componentWillMount!=null&&p.componentWillMount(),D&&p.componentDidMount!=null&&p.__h.push(p.componentDidMount);else{if(D&&N.getDerivedStateFromProps==null&&E!==g&&p.componentWillReceiveProps!=null&&p.componentWillReceiveProps(E,k),n.__v==r.__v||!p.__e&&p.shouldComponentUpdate!=null&&!1===p.shouldComponentUpdate(E,p.__s,k)){n.__v!=r.__v&&(p.props=E,p.state=p.__s,p.__d=!1),n.__e=r.__e,n.__k=r.__k,n.__k.some(function(e){e&&(e.__=n)}),h.push.apply(p.__h,p._sb),p._sb=[],p.__h.length&&s.push(p),c=w(r);break n}p.componentWillUpdate!=null&&p.componentWillUpdate(E,p.__s,k),D&&p.componentDidUpdate!=null&&p.__h.push(function(){p.componentDidUpdate(g,b,x)})}if(p.context=k,p.props=E,p.__P=e,p.__e=!1,A=t.__r,te=0,D)p.state=p.__s,p.__d=!1,A&&A(n),d=p.render(p.props,p.state,p.context),h.push.apply(p.__h,p._sb),p._sb=[];else do p.__d=!1,A&&A(n),d=p.render(p.props,p.state,p.context),p.state=p.__s;while(p.__d&&++te<25);p.state=p.__s,p.getChildContext!=null&&(i=v(v({},i),p.getChildContext())),D&&!m&&p.getSnapshotBeforeUpdate!=null&&(x=p.getSnapshotBeforeUpdate(g,b)),j=d!=null&&d.type===S&&d.key==null?ae(d.props.children):d,c=ee(e,_(j)?j:[j],n,r,i,a,o,s,c,l,u),p.base=n.__e,n.__u&=-161,p.__h.length&&s.push(p),T&&(p.__E=p.__=null)}catch(e){if(s.length=f,n.__v=null,l||o!=null){if(e.then){for(n.__u|=l?160:128;c&&c.nodeType==8&&c.nextSibling;)c=c.nextSibling;o!=null&&(o[o.indexOf(c)]=null),n.__e=c}else if(o!=null)for(M=o.length;M--;)y(o[M])}else n.__e=r.__e;n.__k??=r.__k||[],e.then||re(n),t.__e(e,n,r)}}else o==null&&n.__v==r.__v?(n.__k=r.__k,n.__e=r.__e):c=n.__e=oe(r.__e,n,r,i,a,o,s,l,u);return(d=t.diffed)&&d(n),128&n.__u?void 0:c}function re(e){e&&(e.__c&&(e.__c.__e=!0),e.__k&&e.__k.some(re))}function ie(e,n,r){for(var i=0;i<r.length;i++)se(r[i],r[++i],r[++i]);t.__c&&t.__c(n,e),e.some(function(n){try{e=n.__h,n.__h=[],e.some(function(e){e.call(n)})}catch(e){t.__e(e,n.__v)}})}function ae(e){return typeof e!=`object`||!e||e.__b>0?e:_(e)?e.map(ae):e.constructor===void 0?v({},e):null}function oe(n,r,i,a,o,s,c,l,u){var d,f,p,h,g,v,b,x=i.props||m,S=r.props,C=r.type;if(C==`svg`?o=`http://www.w3.org/2000/svg`:C==`math`?o=`http://www.w3.org/1998/Math/MathML`:o||=`http://www.w3.org/1999/xhtml`,s!=null){for(d=0;d<s.length;d++)if((g=s[d])&&`setAttribute`in g==!!C&&(C?g.localName==C:g.nodeType==3)){n=g,s[d]=null;break}}if(n==null){if(C==null)return document.createTextNode(S);n=document.createElementNS(o,C,S.is&&S),l&&=(t.__m&&t.__m(r,s),!1),s=null}if(C==null)x===S||l&&n.data==S||(n.data=S);else{if(s=C==`textarea`&&S.defaultValue!=null?null:s&&e.call(n.childNodes),!l&&s!=null)for(x={},d=0;d<n.attributes.length;d++)x[(g=n.attributes[d]).name]=g.value;for(d in x)g=x[d],d==`dangerouslySetInnerHTML`?p=g:d==`children`||d in S||d==`value`&&`defaultValue`in S||d==`checked`&&`defaultChecked`in S||M(n,d,null,g,o);for(d in S)g=S[d],d==`children`?h=g:d==`dangerouslySetInnerHTML`?f=g:d==`value`?v=g:d==`checked`?b=g:l&&typeof g!=`function`||x[d]===g||M(n,d,g,x[d],o);if(f)l||p&&(f.__html==p.__html||f.__html==n.innerHTML)||(n.innerHTML=f.__html),r.__k=[];else if(p&&(n.innerHTML=``),ee(r.type==`template`?n.content:n,_(h)?h:[h],r,i,a,C==`foreignObject`?`http://www.w3.org/1999/xhtml`:o,s,c,s?s[0]:i.__k&&w(i,0),l,u),s!=null)for(d=s.length;d--;)y(s[d]);l&&C!=`textarea`||(d=`value`,C==`progress`&&v==null?n.removeAttribute(`value`):v!=null&&(v!==n[d]||C==`progress`&&!v||C==`option`&&v!=x[d])&&M(n,d,v,x[d],o),d=`checked`,b!=null&&b!=n[d]&&M(n,d,b,x[d],o))}return n}function se(e,n,r){try{if(typeof e==`function`){var i=typeof e.__u==`function`;i&&e.__u(),i&&n==null||(e.__u=e(n))}else e.current=n}catch(e){t.__e(e,r)}}function ce(e,n,r){var i,a;if(t.unmount&&t.unmount(e),(i=e.ref)&&(i.current&&i.current!=e.__e||se(i,null,n)),(i=e.__c)!=null){if(i.componentWillUnmount)try{i.componentWillUnmount()}catch(e){t.__e(e,n)}i.base=i.__P=i.__n=null}if(i=e.__k)for(a=0;a<i.length;a++)i[a]&&ce(i[a],n,r||typeof e.type!=`function`);r||y(e.__e),e.__c=e.__=e.__e=void 0}function le(e,t,n){return this.constructor(e,n)}function ue(n,r,i){var a,o,s,c;r==document&&(r=document.documentElement),t.__&&t.__(n,r),o=(a=typeof i==`function`)?null:i&&i.__k||r.__k,s=[],c=[],ne(r,n=(!a&&i||r).__k=b(S,null,[n]),o||m,m,r.namespaceURI,!a&&i?[i]:o?null:r.firstChild?e.call(r.childNodes):null,s,!a&&i?i:o?o.__e:r.firstChild,a,c),ie(s,n,c),n.props.children=null}e=h.slice,t={__e:function(e,t,n,r){for(var i,a,o;t=t.__;)if((i=t.__c)&&!i.__)try{if((a=i.constructor)&&a.getDerivedStateFromError!=null&&(i.setState(a.getDerivedStateFromError(e)),o=i.__d),i.componentDidCatch!=null&&(i.componentDidCatch(e,r||{}),o=i.__d),o)return i.__E=i}catch(t){e=t}throw e}},n=0,C.prototype.setState=function(e,t){var n=this.__s!=null&&this.__s!=this.state?this.__s:this.__s=v({},this.state);typeof e==`function`&&(e=e(v({},n),this.props)),e&&v(n,e),e!=null&&this.__v&&(t&&this._sb.push(t),D(this))},C.prototype.forceUpdate=function(e){this.__v&&(this.__e=!0,e&&this.__h.push(e),D(this))},C.prototype.render=S,r=[],a=typeof Promise==`function`?Promise.prototype.then.bind(Promise.resolve()):setTimeout,o=function(e,t){return e.__v.__b-t.__v.__b},O.__r=0,s=Math.random().toString(8),c=`__d`+s,l=`__a`+s,u=/(PointerCapture)$|Capture$/i,d=0,f=N(!1),p=N(!0);var P,F,de,fe,I=0,pe=[],L=t,me=L.__b,he=L.__r,ge=L.diffed,_e=L.__c,ve=L.unmount,ye=L.__;function be(e,t){L.__h&&L.__h(F,e,I||t),I=0;var n=F.__H||(F.__H={__:[],__h:[]});return e>=n.__.length&&n.__.push({}),n.__[e]}function R(e){return I=1,xe(ke,e)}function xe(e,t,n){var r=be(P++,2);if(r.t=e,!r.__c&&(r.__=[n?n(t):ke(void 0,t),function(e){var t=r.__N?r.__N[0]:r.__[0],n=r.t(t,e);t!==n&&(r.__N=[n,r.__[1]],r.__c.setState({}))}],r.__c=F,!F.__f)){var i=function(e,t,n){if(!r.__c.__H)return!0;var i=!1,o=r.__c.props!==e;if(r.__c.__H.__.some(function(e){if(e.__N){i=!0;var t=e.__[0];e.__=e.__N,e.__N=void 0,t!==e.__[0]&&(o=!0)}}),a){var s=a.call(this,e,t,n);return i?s||o:s}return!i||o};F.__f=!0;var a=F.shouldComponentUpdate,o=F.componentWillUpdate;F.componentWillUpdate=function(e,t,n){if(this.__e){var r=a;a=void 0,i(e,t,n),a=r}o&&o.call(this,e,t,n)},F.shouldComponentUpdate=i}return r.__N||r.__}function z(e,t){var n=be(P++,3);!L.__s&&Oe(n.__H,t)&&(n.__=e,n.u=t,F.__H.__h.push(n))}function Se(e){return I=5,Ce(function(){return{current:e}},[])}function Ce(e,t){var n=be(P++,7);return Oe(n.__H,t)&&(n.__=e(),n.__H=t,n.__h=e),n.__}function we(){for(var e;e=pe.shift();){var t=e.__H;if(e.__P&&t)try{t.__h.some(B),t.__h.some(De),t.__h=[]}catch(n){t.__h=[],L.__e(n,e.__v)}}}L.__b=function(e){F=null,me&&me(e)},L.__=function(e,t){e&&t.__k&&t.__k.__m&&(e.__m=t.__k.__m),ye&&ye(e,t)},L.__r=function(e){he&&he(e),P=0;var t=(F=e.__c).__H;t&&(de===F?(t.__h=[],F.__h=[],t.__.some(function(e){e.__N&&(e.__=e.__N),e.u=e.__N=void 0})):(t.__h.some(B),t.__h.some(De),t.__h=[],P=0)),de=F},L.diffed=function(e){ge&&ge(e);var t=e.__c;t&&t.__H&&(t.__H.__h.length&&(pe.push(t)!==1&&fe===L.requestAnimationFrame||((fe=L.requestAnimationFrame)||Ee)(we)),t.__H.__.some(function(e){e.u&&=(e.__H=e.u,void 0)})),de=F=null},L.__c=function(e,t){t.some(function(e){try{e.__h.some(B),e.__h=e.__h.filter(function(e){return!e.__||De(e)})}catch(n){t.some(function(e){e.__h&&=[]}),t=[],L.__e(n,e.__v)}}),_e&&_e(e,t)},L.unmount=function(e){ve&&ve(e);var t,n=e.__c;n&&n.__H&&(n.__H.__.some(function(e){try{B(e)}catch(e){t=e}}),n.__H=void 0,t&&L.__e(t,n.__v))};var Te=typeof requestAnimationFrame==`function`;function Ee(e){var t,n=function(){clearTimeout(r),Te&&cancelAnimationFrame(t),setTimeout(e)},r=setTimeout(n,35);Te&&(t=requestAnimationFrame(n))}function B(e){var t=F,n=e.__c;typeof n==`function`&&(e.__c=void 0,n()),F=t}function De(e){var t=F;e.__c=e.__(),F=t}function Oe(e,t){return!e||e.length!==t.length||t.some(function(t,n){return t!==e[n]})}function ke(e,t){return typeof t==`function`?t(e):t}var Ae=function(e,t,n,r){var i;t[0]=0;for(var a=1;a<t.length;a++){var o=t[a++],s=t[a]?(t[0]|=o?1:2,n[t[a++]]):t[++a];o===3?r[0]=s:o===4?r[1]=Object.assign(r[1]||{},s):o===5?(r[1]=r[1]||{})[t[++a]]=s:o===6?r[1][t[++a]]+=s+``:o?(i=e.apply(s,Ae(e,s,n,[``,null])),r.push(i),s[0]?t[0]|=2:(t[a-2]=0,t[a]=i)):r.push(s)}return r},je=new Map;function Me(e){var t=je.get(this);return t||(t=new Map,je.set(this,t)),(t=Ae(this,t.get(e)||(t.set(e,t=function(e){for(var t,n,r=1,i=``,a=``,o=[0],s=function(e){r===1&&(e||(i=i.replace(/^\s*\n\s*|\s*\n\s*$/g,``)))?o.push(0,e,i):r===3&&(e||i)?(o.push(3,e,i),r=2):r===2&&i===`...`&&e?o.push(4,e,0):r===2&&i&&!e?o.push(5,0,!0,i):r>=5&&((i||!e&&r===5)&&(o.push(r,0,i,n),r=6),e&&(o.push(r,e,0,n),r=6)),i=``},c=0;c<e.length;c++){c&&(r===1&&s(),s(c));for(var l=0;l<e[c].length;l++)t=e[c][l],r===1?t===`<`?(s(),o=[o],r=3):i+=t:r===4?i===`--`&&t===`>`?(r=1,i=``):i=t+i[0]:a?t===a?a=``:i+=t:t===`"`||t===`'`?a=t:t===`>`?(s(),r=1):r&&(t===`=`?(r=5,n=i,i=``):t===`/`&&(r<5||e[c][l+1]===`>`)?(s(),r===3&&(o=o[0]),r=o,(o=o[0]).push(2,0,r),r=0):t===` `||t===`	`||t===`
`||t===`\r`?(s(),r=2):i+=t),r===3&&i===`!--`&&(r=4,o=o[0])}return s(),o}(e)),t),arguments,[])).length>1?t:t[0]}var V=Me.bind(b),Ne={bodySerializer:e=>JSON.stringify(e,(e,t)=>typeof t==`bigint`?t.toString():t)};Object.entries({$body_:`body`,$headers_:`headers`,$path_:`path`,$query_:`query`});var Pe=({onRequest:e,onSseError:t,onSseEvent:n,responseTransformer:r,responseValidator:i,sseDefaultRetryDelay:a,sseMaxRetryAttempts:o,sseMaxRetryDelay:s,sseSleepFn:c,url:l,...u})=>{let d,f=c??(e=>new Promise(t=>setTimeout(t,e)));return{stream:async function*(){let c=a??3e3,p=0,m=u.signal??new AbortController().signal;for(;!m.aborted;){p++;let a=u.headers instanceof Headers?u.headers:new Headers(u.headers);d!==void 0&&a.set(`Last-Event-ID`,d);try{let t={redirect:`follow`,...u,body:u.serializedBody,headers:a,signal:m},o=new Request(l,t);e&&(o=await e(l,t));let s=await(u.fetch??globalThis.fetch)(o);if(!s.ok)throw Error(`SSE failed: ${s.status} ${s.statusText}`);if(!s.body)throw Error(`No body in SSE response`);let f=s.body.pipeThrough(new TextDecoderStream).getReader(),p=``,h=()=>{try{f.cancel()}catch{}};m.addEventListener(`abort`,h);try{for(;;){let{done:e,value:t}=await f.read();if(e)break;p+=t,p=p.replace(/\r\n/g,`
`).replace(/\r/g,`
`);let a=p.split(`

`);p=a.pop()??``;for(let e of a){let t=e.split(`
`),a=[],o;for(let e of t)if(e.startsWith(`data:`))a.push(e.replace(/^data:\s*/,``));else if(e.startsWith(`event:`))o=e.replace(/^event:\s*/,``);else if(e.startsWith(`id:`))d=e.replace(/^id:\s*/,``);else if(e.startsWith(`retry:`)){let t=Number.parseInt(e.replace(/^retry:\s*/,``),10);Number.isNaN(t)||(c=t)}let s,l=!1;if(a.length){let e=a.join(`
`);try{s=JSON.parse(e),l=!0}catch{s=e}}l&&(i&&await i(s),r&&(s=await r(s))),n?.({data:s,event:o,id:d,retry:c}),a.length&&(yield s)}}}finally{m.removeEventListener(`abort`,h),f.releaseLock()}break}catch(e){if(t?.(e),o!==void 0&&p>=o)break;let n=Math.min(c*2**(p-1),s??3e4);await f(n)}}}()}},Fe=e=>{switch(e){case`label`:return`.`;case`matrix`:return`;`;case`simple`:return`,`;default:return`&`}},Ie=e=>{switch(e){case`form`:return`,`;case`pipeDelimited`:return`|`;case`spaceDelimited`:return`%20`;default:return`,`}},Le=e=>{switch(e){case`label`:return`.`;case`matrix`:return`;`;case`simple`:return`,`;default:return`&`}},Re=({allowReserved:e,explode:t,name:n,style:r,value:i})=>{if(!t){let t=(e?i:i.map(e=>encodeURIComponent(e))).join(Ie(r));switch(r){case`label`:return`.${t}`;case`matrix`:return`;${n}=${t}`;case`simple`:return t;default:return`${n}=${t}`}}let a=Fe(r),o=i.map(t=>r===`label`||r===`simple`?e?t:encodeURIComponent(t):H({allowReserved:e,name:n,value:t})).join(a);return r===`label`||r===`matrix`?a+o:o},H=({allowReserved:e,name:t,value:n})=>{if(n==null)return``;if(typeof n==`object`)throw Error("Deeply-nested arrays/objects aren’t supported. Provide your own `querySerializer()` to handle these.");return`${t}=${e?n:encodeURIComponent(n)}`},ze=({allowReserved:e,explode:t,name:n,style:r,value:i,valueOnly:a})=>{if(i instanceof Date)return a?i.toISOString():`${n}=${i.toISOString()}`;if(r!==`deepObject`&&!t){let t=[];Object.entries(i).forEach(([n,r])=>{t=[...t,n,e?r:encodeURIComponent(r)]});let a=t.join(`,`);switch(r){case`form`:return`${n}=${a}`;case`label`:return`.${a}`;case`matrix`:return`;${n}=${a}`;default:return a}}let o=Le(r),s=Object.entries(i).map(([t,i])=>H({allowReserved:e,name:r===`deepObject`?`${n}[${t}]`:t,value:i})).join(o);return r===`label`||r===`matrix`?o+s:s},Be=/\{[^{}]+\}/g,Ve=({path:e,url:t})=>{let n=t,r=t.match(Be);if(r)for(let t of r){let r=!1,i=t.substring(1,t.length-1),a=`simple`;i.endsWith(`*`)&&(r=!0,i=i.substring(0,i.length-1)),i.startsWith(`.`)?(i=i.substring(1),a=`label`):i.startsWith(`;`)&&(i=i.substring(1),a=`matrix`);let o=e[i];if(o==null)continue;if(Array.isArray(o)){n=n.replace(t,Re({explode:r,name:i,style:a,value:o}));continue}if(typeof o==`object`){n=n.replace(t,ze({explode:r,name:i,style:a,value:o,valueOnly:!0}));continue}if(a===`matrix`){n=n.replace(t,`;${H({name:i,value:o})}`);continue}let s=encodeURIComponent(a===`label`?`.${o}`:o);n=n.replace(t,s)}return n},He=({baseUrl:e,path:t,query:n,querySerializer:r,url:i})=>{let a=i.startsWith(`/`)?i:`/${i}`,o=(e??``)+a;t&&(o=Ve({path:t,url:o}));let s=n?r(n):``;return s.startsWith(`?`)&&(s=s.substring(1)),s&&(o+=`?${s}`),o};function Ue(e){let t=e.body!==void 0;if(t&&e.bodySerializer)return`serializedBody`in e?e.serializedBody!==void 0&&e.serializedBody!==``?e.serializedBody:null:e.body===``?null:e.body;if(t)return e.body}var We=async(e,t)=>{let n=typeof t==`function`?await t(e):t;if(n)return e.scheme===`bearer`?`Bearer ${n}`:e.scheme===`basic`?`Basic ${btoa(n)}`:n},Ge=({parameters:e={},...t}={})=>n=>{let r=[];if(n&&typeof n==`object`)for(let i in n){let a=n[i];if(a==null)continue;let o=e[i]||t;if(Array.isArray(a)){let e=Re({allowReserved:o.allowReserved,explode:!0,name:i,style:`form`,value:a,...o.array});e&&r.push(e)}else if(typeof a==`object`){let e=ze({allowReserved:o.allowReserved,explode:!0,name:i,style:`deepObject`,value:a,...o.object});e&&r.push(e)}else{let e=H({allowReserved:o.allowReserved,name:i,value:a});e&&r.push(e)}}return r.join(`&`)},Ke=e=>{if(!e)return`stream`;let t=e.split(`;`)[0]?.trim();if(t){if(t.startsWith(`application/json`)||t.endsWith(`+json`))return`json`;if(t===`multipart/form-data`)return`formData`;if([`application/`,`audio/`,`image/`,`video/`].some(e=>t.startsWith(e)))return`blob`;if(t.startsWith(`text/`))return`text`}},qe=(e,t)=>t?!!(e.headers.has(t)||e.query?.[t]||e.headers.get(`Cookie`)?.includes(`${t}=`)):!1,Je=async({security:e,...t})=>{for(let n of e){if(qe(t,n.name))continue;let e=await We(n,t.auth);if(!e)continue;let r=n.name??`Authorization`;switch(n.in){case`query`:t.query||={},t.query[r]=e;break;case`cookie`:t.headers.append(`Cookie`,`${r}=${e}`);break;default:t.headers.set(r,e)}}},Ye=e=>He({baseUrl:e.baseUrl,path:e.path,query:e.query,querySerializer:typeof e.querySerializer==`function`?e.querySerializer:Ge(e.querySerializer),url:e.url}),Xe=(e,t)=>{let n={...e,...t};return n.baseUrl?.endsWith(`/`)&&(n.baseUrl=n.baseUrl.substring(0,n.baseUrl.length-1)),n.headers=Qe(e.headers,t.headers),n},Ze=e=>{let t=[];return e.forEach((e,n)=>{t.push([n,e])}),t},Qe=(...e)=>{let t=new Headers;for(let n of e){if(!n)continue;let e=n instanceof Headers?Ze(n):Object.entries(n);for(let[n,r]of e)if(r===null)t.delete(n);else if(Array.isArray(r))for(let e of r)t.append(n,e);else r!==void 0&&t.set(n,typeof r==`object`?JSON.stringify(r):r)}return t},$e=class{fns=[];clear(){this.fns=[]}eject(e){let t=this.getInterceptorIndex(e);this.fns[t]&&(this.fns[t]=null)}exists(e){let t=this.getInterceptorIndex(e);return!!this.fns[t]}getInterceptorIndex(e){return typeof e==`number`?this.fns[e]?e:-1:this.fns.indexOf(e)}update(e,t){let n=this.getInterceptorIndex(e);return this.fns[n]?(this.fns[n]=t,e):!1}use(e){return this.fns.push(e),this.fns.length-1}},et=()=>({error:new $e,request:new $e,response:new $e}),tt=Ge({allowReserved:!1,array:{explode:!0,style:`form`},object:{explode:!0,style:`deepObject`}}),nt={"Content-Type":`application/json`},rt=(e={})=>({...Ne,headers:nt,parseAs:`auto`,querySerializer:tt,...e}),it=(e={})=>{let t=Xe(rt(),e),n=()=>({...t}),r=e=>(t=Xe(t,e),n()),i=et(),a=async e=>{let n={...t,...e,fetch:e.fetch??t.fetch??globalThis.fetch,headers:Qe(t.headers,e.headers),serializedBody:void 0};n.security&&await Je({...n,security:n.security}),n.requestValidator&&await n.requestValidator(n),n.body!==void 0&&n.bodySerializer&&(n.serializedBody=n.bodySerializer(n.body)),(n.body===void 0||n.serializedBody===``)&&n.headers.delete(`Content-Type`);let r=n;return{opts:r,url:Ye(r)}},o=async e=>{let{opts:t,url:n}=await a(e),r={redirect:`follow`,...t,body:Ue(t)},o=new Request(n,r);for(let e of i.request.fns)e&&(o=await e(o,t));let s=t.fetch,c;try{c=await s(o)}catch(e){let n=e;for(let r of i.error.fns)r&&(n=await r(e,void 0,o,t));if(n||={},t.throwOnError)throw n;return t.responseStyle===`data`?void 0:{error:n,request:o,response:void 0}}for(let e of i.response.fns)e&&(c=await e(c,o,t));let l={request:o,response:c};if(c.ok){let e=(t.parseAs===`auto`?Ke(c.headers.get(`Content-Type`)):t.parseAs)??`json`;if(c.status===204||c.headers.get(`Content-Length`)===`0`){let n;switch(e){case`arrayBuffer`:case`blob`:case`text`:n=await c[e]();break;case`formData`:n=new FormData;break;case`stream`:n=c.body;break;default:n={}}return t.responseStyle===`data`?n:{data:n,...l}}let n;switch(e){case`arrayBuffer`:case`blob`:case`formData`:case`text`:n=await c[e]();break;case`json`:{let e=await c.text();n=e?JSON.parse(e):{};break}case`stream`:return t.responseStyle===`data`?c.body:{data:c.body,...l}}return e===`json`&&(t.responseValidator&&await t.responseValidator(n),t.responseTransformer&&(n=await t.responseTransformer(n))),t.responseStyle===`data`?n:{data:n,...l}}let u=await c.text(),d;try{d=JSON.parse(u)}catch{}let f=d??u,p=f;for(let e of i.error.fns)e&&(p=await e(f,c,o,t));if(p||={},t.throwOnError)throw p;return t.responseStyle===`data`?void 0:{error:p,...l}},s=e=>t=>o({...t,method:e}),c=e=>async t=>{let{opts:n,url:r}=await a(t);return Pe({...n,body:n.body,headers:n.headers,method:e,onRequest:async(e,t)=>{let r=new Request(e,t);for(let e of i.request.fns)e&&(r=await e(r,n));return r},serializedBody:Ue(n),url:r})};return{buildUrl:e=>Ye({...t,...e}),connect:s(`CONNECT`),delete:s(`DELETE`),get:s(`GET`),getConfig:n,head:s(`HEAD`),interceptors:i,options:s(`OPTIONS`),patch:s(`PATCH`),post:s(`POST`),put:s(`PUT`),request:o,setConfig:r,sse:{connect:c(`CONNECT`),delete:c(`DELETE`),get:c(`GET`),head:c(`HEAD`),options:c(`OPTIONS`),patch:c(`PATCH`),post:c(`POST`),put:c(`PUT`),trace:c(`TRACE`)},trace:s(`TRACE`)}},U=it(rt({baseUrl:`http://localhost:8080`})),at=e=>(e?.client??U).get({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/calls`,...e}),ot=e=>(e.client??U).post({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/calls`,...e,headers:{"Content-Type":`application/json`,...e.headers}}),st=e=>(e.client??U).post({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/calls/preflight`,...e,headers:{"Content-Type":`application/json`,...e.headers}}),ct=e=>(e?.client??U).get({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/batches`,...e}),lt=e=>(e.client??U).post({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/batches`,...e,headers:{"Content-Type":`application/json`,...e.headers}}),ut=e=>(e.client??U).post({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/batches/preflight`,...e,headers:{"Content-Type":`application/json`,...e.headers}}),dt=e=>(e.client??U).get({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/batches/{id}`,...e}),ft=e=>(e.client??U).post({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/batches/{id}/cancel`,...e}),pt=e=>(e.client??U).get({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/batches/{id}/rows`,...e}),mt=e=>(e?.client??U).get({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/stats`,...e}),ht=e=>(e?.client??U).get({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/settings`,...e}),gt=e=>(e?.client??U).get({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/do-not-call`,...e}),_t=e=>(e.client??U).post({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/do-not-call`,...e,headers:{"Content-Type":`application/json`,...e.headers}}),vt=e=>(e.client??U).delete({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/do-not-call/{number}`,...e}),yt=e=>(e.client??U).get({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/calls/{id}`,...e}),bt=e=>(e.client??U).post({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/calls/{id}/cancel`,...e}),xt=e=>(e.client??U).get({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/calls/{id}/recording`,...e}),St=e=>(e.client??U).get({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/calls/{id}/events`,...e}),Ct=e=>(e.client??U).post({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/calls/{id}/events/{eventId}/redeliver`,...e}),wt=e=>(e.client??U).get({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/batches/{id}/events`,...e}),Tt=e=>(e.client??U).post({security:[{scheme:`bearer`,type:`http`}],url:`/v1/agent/batches/{id}/events/{eventId}/redeliver`,...e});function Et(e,t){let n=e.get(t);return n!==null&&/^\d+$/.test(n.trim())?Number(n.trim()):null}function Dt(e){return{limit:Et(e,`RateLimit-Limit`),remaining:Et(e,`RateLimit-Remaining`),resetSec:Et(e,`RateLimit-Reset`),retryAfterSec:Et(e,`Retry-After`)}}var W=class e extends Error{status;token;rateLimit;requestId;errors;problems;name=`SvcApiError`;constructor(e,t,n,r,i,a=null,o=null){super(n),this.status=e,this.token=t,this.rateLimit=r,this.requestId=i,this.errors=a,this.problems=o}static fromResponse(t,n){let r=typeof n==`object`&&n?n:{},i=typeof r.error==`string`?r.error:`http_${t.status}`,a=typeof r.message==`string`?r.message:`The service answered ${t.status} ${t.statusText}`.trim(),o=r.errors,s=Array.isArray(o)?o:null,c=i===`invalid_batch`?s:null,l=i===`invalid_batch`?null:s;return new e(t.status,i,a,Dt(t.headers),t.headers.get(`X-Request-Id`),c,l)}},G=class extends Error{name=`SvcNetworkError`;constructor(e,t){super(e,t)}},Ot=class extends Error{callId;timeoutMs;lastStatus;name=`SvcTimeoutError`;constructor(e,t,n,r=`Call`){super(`${r} ${e} did not reach a terminal status within ${t} ms (last status: ${n??`unknown`}). Wait longer, or subscribe to webhooks instead of polling.`),this.callId=e,this.timeoutMs=t,this.lastStatus=n}},kt=(e,t)=>new Promise((n,r)=>{if(t?.aborted)return r(t.reason);let i=()=>{clearTimeout(a),r(t.reason)},a=setTimeout(()=>{t?.removeEventListener(`abort`,i),n()},e);t?.addEventListener(`abort`,i,{once:!0})}),At=class e{random;maxAttempts;baseDelayMs;maxDelayMs;constructor(e,t){this.random=t,this.maxAttempts=e?Math.max(1,Math.floor(e.maxAttempts??3)):1,this.baseDelayMs=e?e.baseDelayMs??500:0,this.maxDelayMs=e?e.maxDelayMs??3e4:0}static isTransient(e,t){return e instanceof G?!0:e instanceof W?e.status===429?t!==`preflight`&&e.token===`rate_limited`:e.status===409?t===`placement`&&e.token===`idempotency_key_in_use`:e.status===502||e.status===503:!1}delayAfter(t,n,r){if(n>=this.maxAttempts||!e.isTransient(t,r))return null;let i=t instanceof W?t.rateLimit.retryAfterSec:null;if(i!==null){let e=i*1e3;return e<=this.maxDelayMs?e:null}let a=Math.min(this.maxDelayMs,this.baseDelayMs*2**(n-1));return Math.round(a/2+a/2*this.random())}},jt=[`completed`,`no_answer`,`voicemail`,`declined`,`failed`,`canceled`],Mt=[`completed`,`canceled`,`stopped`];function Nt(e){return jt.includes(e)}async function Pt(e,t,n,r,i=Nt){let{timeoutMs:a=6e5,intervalMs:o=2e3,signal:s}=r,c=n.now()+a,l=null;for(;;){if(s?.aborted)throw s.reason;let r=o;try{let{data:e,rateLimit:n}=await t(s);if(i(e.status))return e;l=e.status,n.remaining===0&&n.resetSec!==null&&(r=Math.max(r,n.resetSec*1e3))}catch(e){if(s?.aborted||!At.isTransient(e,`other`))throw e;let t=e.rateLimit?.retryAfterSec??null;t!==null&&(r=Math.max(r,t*1e3))}let u=c-n.now();if(u<=0)throw new Ot(e,a,l,i===Nt?`Call`:`Batch`);await n.sleep(Math.min(r,u),s)}}var Ft=class extends Error{constructor(e,t){super(e),this.name=`ParseError`,this.type=t.type,this.field=t.field,this.value=t.value,this.line=t.line}},It=10,Lt=13,K=32;function Rt(e){}function zt(e){if(typeof e==`function`)throw TypeError("`config` must be an object, got a function instead. Did you mean `createParser({onEvent: fn})`?");let{onEvent:t=Rt,onError:n=Rt,onRetry:r=Rt,onComment:i,maxBufferSize:a}=e,o=[],s=0,c=!0,l,u=``,d=0,f,p=!1;function m(e){if(p)throw Error("Cannot feed parser: it was terminated after exceeding the configured max buffer size. Call `reset()` to resume parsing.");if(c&&(c=!1,e.charCodeAt(0)===239&&e.charCodeAt(1)===187&&e.charCodeAt(2)===191&&(e=e.slice(3))),o.length===0){let t=g(e);t!==``&&(o.push(t),s=t.length),h();return}if(e.indexOf(`
`)===-1&&e.indexOf(`\r`)===-1){o.push(e),s+=e.length,h();return}o.push(e);let t=o.join(``);o.length=0,s=0;let n=g(t);n!==``&&(o.push(n),s=n.length),h()}function h(){a!==void 0&&(s+u.length<=a||(p=!0,o.length=0,s=0,l=void 0,u=``,d=0,f=void 0,n(new Ft(`Buffered data exceeded max buffer size of ${a} characters`,{type:`max-buffer-size-exceeded`}))))}function g(e){let n=0;if(e.indexOf(`\r`)===-1){let r=e.indexOf(`
`,n);for(;r!==-1;){if(n===r){d>0&&t({id:l,event:f,data:u}),l=void 0,u=``,d=0,f=void 0,n=r+1,r=e.indexOf(`
`,n);continue}let i=e.charCodeAt(n);if(Bt(e,n,i)){let i=e.charCodeAt(n+5)===K?n+6:n+5,a=e.slice(i,r);if(d===0&&e.charCodeAt(r+1)===It){t({id:l,event:f,data:a}),l=void 0,u=``,f=void 0,n=r+2,r=e.indexOf(`
`,n);continue}u=d===0?a:`${u}
${a}`,d++}else Vt(e,n,i)?f=e.slice(e.charCodeAt(n+6)===K?n+7:n+6,r)||void 0:_(e,n,r);n=r+1,r=e.indexOf(`
`,n)}return e.slice(n)}for(;n<e.length;){let t=e.indexOf(`\r`,n),r=e.indexOf(`
`,n),i=-1;if(t!==-1&&r!==-1?i=t<r?t:r:t===-1?r!==-1&&(i=r):i=t===e.length-1?-1:t,i===-1)break;_(e,n,i),n=i+1,e.charCodeAt(n-1)===Lt&&e.charCodeAt(n)===It&&n++}return e.slice(n)}function _(e,t,n){if(t===n){y();return}let r=e.charCodeAt(t);if(Bt(e,t,r)){let r=e.charCodeAt(t+5)===K?t+6:t+5,i=e.slice(r,n);u=d===0?i:`${u}
${i}`,d++;return}if(Vt(e,t,r)){f=e.slice(e.charCodeAt(t+6)===K?t+7:t+6,n)||void 0;return}if(r===105&&e.charCodeAt(t+1)===100&&e.charCodeAt(t+2)===58){let r=e.slice(e.charCodeAt(t+3)===K?t+4:t+3,n);r.includes(`\0`)||(l=r);return}if(r===58){if(i){let r=e.slice(t,n);i(r.slice(e.charCodeAt(t+1)===K?2:1))}return}let a=e.slice(t,n),o=a.indexOf(`:`);if(o===-1){v(a,``,a);return}let s=a.slice(0,o),c=a.charCodeAt(o+1)===K?2:1;v(s,a.slice(o+c),a)}function v(e,t,i){switch(e){case`event`:f=t||void 0;break;case`data`:u=d===0?t:`${u}
${t}`,d++;break;case`id`:t.includes(`\0`)||(l=t);break;case`retry`:/^\d+$/.test(t)?r(parseInt(t,10)):n(new Ft(`Invalid \`retry\` value: "${t}"`,{type:`invalid-retry`,value:t,line:i}));break;default:n(new Ft(`Unknown field "${e.length>20?`${e.slice(0,20)}\u2026`:e}"`,{type:`unknown-field`,field:e,value:t,line:i}))}}function y(){d>0&&t({id:l,event:f,data:u}),l=void 0,u=``,d=0,f=void 0}function b(e={}){if(e.consume&&o.length>0){let e=o.join(``);_(e,0,e.length)}c=!0,l=void 0,u=``,d=0,f=void 0,o.length=0,s=0,p=!1}return{feed:m,reset:b}}function Bt(e,t,n){return n===100&&e.charCodeAt(t+1)===97&&e.charCodeAt(t+2)===116&&e.charCodeAt(t+3)===97&&e.charCodeAt(t+4)===58}function Vt(e,t,n){return n===101&&e.charCodeAt(t+1)===118&&e.charCodeAt(t+2)===101&&e.charCodeAt(t+3)===110&&e.charCodeAt(t+4)===116&&e.charCodeAt(t+5)===58}var Ht=class extends TransformStream{constructor({onError:e,onRetry:t,onComment:n,maxBufferSize:r}={}){let i;super({start(a){i=zt({onEvent:e=>{a.enqueue(e)},onError(t){typeof e==`function`&&e(t),(e===`terminate`||t.type===`max-buffer-size-exceeded`)&&a.error(t)},onRetry:t,onComment:n,maxBufferSize:r})},transform(e){i.feed(e)}})}},Ut=new Set([`status`,`turn`,`tool_call`]);async function*Wt(e,t,n,r){let{signal:i}=n,a=n.maxReconnects??10,o=n.lastEventId,s=1e3,c=0;for(;;){let n={Authorization:`Bearer ${e.apiKey}`,Accept:`text/event-stream`};o!==void 0&&(n[`Last-Event-ID`]=o);let l;try{l=await e.fetch(`${e.baseUrl}${t}`,{headers:n,signal:i})}catch(n){if(i?.aborted)throw i.reason;if(++c>a)throw new G(`The stream ${t} could not be reached at ${e.baseUrl}: ${n instanceof Error?n.message:String(n)}.`,{cause:n});await e.sleep(s,i);continue}if(!l.ok){let e=await l.json().catch(()=>void 0);throw W.fromResponse(l,e)}let u=l.body.pipeThrough(new TextDecoderStream).pipeThrough(new Ht({onRetry:e=>s=e}));try{for await(let e of u){if(!Ut.has(e.event??``))continue;let t={event:e.event,id:e.id??``,data:JSON.parse(e.data)};if(e.id!==void 0&&(o=e.id),c=0,yield t,r(t))return}}catch{if(i?.aborted)throw i.reason}if(i?.aborted)throw i.reason;if(++c>a)throw new G(`The stream ${t} kept ending without its last event.`,{cause:void 0});await e.sleep(s,i)}}var Gt=e=>e.event===`status`&&Nt(e.data.status),Kt=class{client;retry;sleep;now;transport;baseUrl;constructor(e){if(typeof e?.apiKey!=`string`||e.apiKey===``)throw TypeError(`SvcClient needs an API key: new SvcClient({ apiKey: process.env.SVC_API_KEY }).`);this.baseUrl=(e.baseUrl??`http://localhost:8080`).replace(/\/+$/,``),this.client=it(rt({baseUrl:this.baseUrl,fetch:e.fetch,auth:e.apiKey})),this.retry=new At(e.retries,e.random??Math.random),this.sleep=e.sleep??kt,this.now=e.now??Date.now;let t=e.fetch??globalThis.fetch;this.transport={baseUrl:this.baseUrl,apiKey:e.apiKey,fetch:(e,n)=>t(e,n),sleep:this.sleep}}async placeCall(e,t={}){let n=t.idempotencyKey??globalThis.crypto.randomUUID(),{signal:r}=t;return(await this.send(()=>ot({client:this.client,body:e,headers:{"Idempotency-Key":n},signal:r}),r,`placement`)).data}async preflightCall(e,t={}){let{signal:n}=t;return(await this.send(()=>st({client:this.client,body:e,signal:n}),n,`preflight`)).data}async cancelCall(e,t={}){let{signal:n,idempotencyKey:r}=t,i=r===void 0?void 0:{"Idempotency-Key":r};return(await this.send(()=>bt({client:this.client,path:{id:e},headers:i,signal:n}),n,`other`)).data}async addDoNotCall(e,t={}){let{signal:n,reason:r}=t,i=r===void 0?{number:e}:{number:e,reason:r};return(await this.send(()=>_t({client:this.client,body:i,signal:n}),n,`other`)).data}async listDoNotCall(e={}){let{signal:t,limit:n,after:r}=e,i={...n===void 0?{}:{limit:n},...r===void 0?{}:{after:r}};return(await this.send(()=>gt({client:this.client,query:i,signal:t}),t,`other`)).data}async removeDoNotCall(e,t={}){let{signal:n}=t;await this.send(()=>vt({client:this.client,path:{number:e},signal:n}),n,`other`)}async getCall(e,t={}){return(await this.getCallAnswer(e,t.signal)).data}async listCalls(e={}){let{signal:t,...n}=e,r=Object.entries(n).filter(([,e])=>e!==void 0),i=r.length===0?void 0:Object.fromEntries(r);return(await this.send(()=>at({client:this.client,query:i,signal:t}),t,`other`)).data}async getStats(e={}){let{signal:t,createdFrom:n,createdTo:r}=e,i=n===void 0&&r===void 0?void 0:{...n===void 0?{}:{createdFrom:n},...r===void 0?{}:{createdTo:r}};return(await this.send(()=>mt({client:this.client,query:i,signal:t}),t,`other`)).data}async getSettings(e={}){let{signal:t}=e;return(await this.send(()=>ht({client:this.client,signal:t}),t,`other`)).data}async createBatch(e,t={}){let n=t.idempotencyKey??globalThis.crypto.randomUUID(),{signal:r}=t;return(await this.send(()=>lt({client:this.client,body:e,headers:{"Idempotency-Key":n},signal:r}),r,`placement`)).data}async preflightBatch(e,t={}){let{signal:n}=t;return(await this.send(()=>ut({client:this.client,body:e,signal:n}),n,`other`)).data}async getBatch(e,t={}){let{signal:n}=t;return(await this.send(()=>dt({client:this.client,path:{id:e},signal:n}),n,`other`)).data}async listBatches(e={}){let{signal:t,limit:n}=e,r=n===void 0?void 0:{limit:n};return(await this.send(()=>ct({client:this.client,query:r,signal:t}),t,`other`)).data}async listBatchRows(e,t={}){let{signal:n,limit:r,after:i,state:a}=t,o={...r===void 0?{}:{limit:r},...i===void 0?{}:{after:i},...a===void 0?{}:{state:a}};return(await this.send(()=>pt({client:this.client,path:{id:e},query:o,signal:n}),n,`other`)).data}async cancelBatch(e,t={}){let{signal:n}=t;return(await this.send(()=>ft({client:this.client,path:{id:e},signal:n}),n,`other`)).data}waitForBatch(e,t={}){return Pt(e,t=>this.send(()=>dt({client:this.client,path:{id:e},signal:t}),t,`other`),{sleep:this.sleep,now:this.now},t,e=>Mt.includes(e))}async listCallEvents(e,t={}){let{signal:n}=t;return(await this.send(()=>St({client:this.client,path:{id:e},signal:n}),n,`other`)).data.events}async redeliverEvent(e,t,n={}){let{signal:r}=n;return(await this.send(()=>Ct({client:this.client,path:{id:e,eventId:t},signal:r}),r,`other`)).data}async listBatchEvents(e,t={}){let{signal:n}=t;return(await this.send(()=>wt({client:this.client,path:{id:e},signal:n}),n,`other`)).data.events}async redeliverBatchEvent(e,t,n={}){let{signal:r}=n;return(await this.send(()=>Tt({client:this.client,path:{id:e,eventId:t},signal:r}),r,`other`)).data}streamCall(e,t={}){return Wt(this.transport,`/v1/agent/calls/${encodeURIComponent(e)}/stream`,t,Gt)}streamEvents(e={}){return Wt(this.transport,`/v1/agent/stream`,e,()=>!1)}async getCallRecording(e,t={}){let{signal:n,range:r,channels:i}=t,a=r===void 0?void 0:{Range:r},o=i===void 0?void 0:{channels:i},s=await this.send(()=>xt({client:this.client,path:{id:e},query:o,headers:a,signal:n,parseAs:`blob`}),n,`other`);return{audio:s.data,status:s.response.status,contentRange:s.response.headers.get(`Content-Range`)}}waitForCall(e,t={}){return Pt(e,t=>this.getCallAnswer(e,t),{sleep:this.sleep,now:this.now},t)}getCallAnswer(e,t){return this.send(()=>yt({client:this.client,path:{id:e},signal:t}),t,`other`)}async send(e,t,n){for(let r=1;;r++)try{return await this.once(e,t)}catch(e){let i=this.retry.delayAfter(e,r,n);if(i===null)throw e;await this.sleep(i,t)}}async once(e,t){let n=await e(),{response:r}=n;if(!r){if(t?.aborted)throw t.reason;let e=n.error;throw new G(`The request to the service failed before any answer: ${e instanceof Error?`${e.message}${e.cause instanceof Error?` (${e.cause.message})`:``}`:String(e)}. Is the service running at ${this.baseUrl}?`,{cause:e})}if(!r.ok)throw W.fromResponse(r,n.error);return{data:n.data,rateLimit:Dt(r.headers),response:r}}},qt=`svc.apiKey`,Jt=()=>sessionStorage.getItem(qt),Yt=e=>sessionStorage.setItem(qt,e.trim()),Xt=()=>sessionStorage.removeItem(qt),Zt=null;function q(){let e=Jt();if(!e)throw Error(`not signed in`);return Zt?.key!==e&&(Zt={key:e,svc:new Kt({apiKey:e,baseUrl:location.origin})}),Zt.svc}function Qt(e){return e instanceof W?{token:e.token,message:e.message}:e instanceof G?{token:`service_unreachable`,message:e.message}:typeof e==`object`&&e&&`token`in e&&`message`in e?{token:String(e.token),message:String(e.message)}:{token:`error`,message:e instanceof Error?e.message:String(e)}}function J({error:e}){if(!e)return null;let{token:t,message:n}=Qt(e);return V`<p class="error" role="alert"><code>${t}</code> ${n}</p>`}var $t=[`completed`,`no_answer`,`voicemail`,`declined`,`failed`,`canceled`],en=e=>!$t.includes(e);function Y({status:e}){return V`<span class=${`chip chip-${e}`}>${e.replace(`_`,` `)}</span>`}var X=e=>e?new Date(e).toLocaleString():`—`,tn=e=>e==null?`—`:`${Math.round(e)} s`,nn=e=>`${Math.floor(e/60)}:${String(Math.floor(e%60)).padStart(2,`0`)}`;function rn({children:e}){return V`<p class="empty">${e}</p>`}function an({onSignedIn:e}){let[t,n]=R(``),[r,i]=R(null),[a,o]=R(!1);document.title=`Sign in · svc console`;async function s(n){n.preventDefault(),o(!0),i(null),Yt(t);try{await q().listCalls({limit:1}),e()}catch(e){Xt(),i(e)}finally{o(!1)}}return V`
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
  `}var on=[`queued`,`dialing`,`in_progress`,...$t],sn=[`human`,`machine`,`fax`,`unknown`,`none`],cn=100,ln=e=>{let t=new Date(e);return Number.isNaN(t.getTime())?``:`${t.getFullYear()}-${String(t.getMonth()+1).padStart(2,`0`)}-${String(t.getDate()).padStart(2,`0`)}`},un=(e,t=0)=>{let[n,r,i]=e.split(`-`).map(Number);return new Date(n,r-1,i+t).toISOString()},dn={q:``,status:``,answeredBy:``,batchId:``,from:``,to:``};function fn(){let e=new URLSearchParams(location.hash.split(`?`)[1]??``);return{q:e.get(`q`)??``,status:e.get(`status`)??``,answeredBy:e.get(`answeredBy`)??``,batchId:e.get(`batch`)??``,from:e.get(`from`)?ln(e.get(`from`)):``,to:``}}function pn(e,t){let n={limit:cn};return e.q.trim()&&(n.q=e.q.trim()),e.status&&(n.status=e.status),e.answeredBy&&(n.answeredBy=e.answeredBy),e.batchId.trim()&&(n.batchId=e.batchId.trim()),e.from&&(n.createdFrom=un(e.from)),e.to&&(n.createdTo=un(e.to,1)),t&&(n.cursor=t),n}function mn(){let[e,t]=R(null),[n,r]=R(null),[i,a]=R(fn),[o,s]=R([void 0]),[c,l]=R(!1),u=o.length-1,d=Object.values(i).some(e=>e.trim()!==``);document.title=`Calls · svc console`;let f=e=>t=>{let n=t.target.value;a(t=>t[e]===n?t:{...t,[e]:n}),s([void 0])};z(()=>{let e=new AbortController,n=()=>q().listCalls({...pn(i,o[u]),signal:e.signal}).then(e=>{t(e),r(null)}).catch(t=>e.signal.aborted||r(t));return t(null),n(),(async()=>{try{l(!0);for await(let r of q().streamEvents({signal:e.signal})){if(r.event!==`status`)continue;let{callId:e,status:i,durationSec:a}=r.data,o=!1;t(t=>(o=!!t?.calls.some(t=>t.id===e),t&&{...t,calls:t.calls.map(t=>t.id===e?{...t,status:i,durationSec:a??t.durationSec}:t)})),!o&&u===0&&n()}}catch(t){e.signal.aborted||r(t)}finally{l(!1)}})(),()=>e.abort()},[i,o]);let p=e?.calls??null;return V`
    <h1>Calls</h1>
    <form class="filters" role="search" aria-label="Search and filter calls" onSubmit=${e=>e.preventDefault()}>
      <label>Search
        <input type="search" name="q" placeholder="number, objective or metadata" value=${i.q} onChange=${f(`q`)} />
      </label>
      <label>Status
        <select name="status" value=${i.status} onChange=${f(`status`)}>
          <option value="">any</option>
          ${on.map(e=>V`<option value=${e}>${e.replace(`_`,` `)}</option>`)}
        </select>
      </label>
      <label>Answered by
        <select name="answeredBy" value=${i.answeredBy} onChange=${f(`answeredBy`)}>
          <option value="">anyone or no one</option>
          ${sn.map(e=>V`<option value=${e}>${e===`none`?`no one`:e}</option>`)}
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
      ${d?V`<button
              type="button"
              class="secondary"
              onClick=${()=>{a(dn),s([void 0])}}
            >
              Clear filters
            </button>`:null}
      <span class="live" aria-live="polite">${c?`live`:``}</span>
    </form>
    <${J} error=${n} />
    ${p===null?n?null:V`<p>Loading…</p>`:p.length===0?V`<${rn}>No calls${d?` match these filters`:` yet`}. <a href="#/place">Place a call</a>.<//>`:V`
            <div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Created</th><th scope="col">Status</th><th scope="col">To</th><th scope="col">Answered by</th>
                    <th scope="col">Objective</th><th scope="col">Duration</th><th scope="col">Batch</th>
                  </tr>
                </thead>
                <tbody>
                  ${p.map(e=>V`
                      <tr key=${e.id} data-call=${e.id}>
                        <td class="when"><time datetime=${e.createdAt}>${X(e.createdAt)}</time></td>
                        <td><${Y} status=${e.status} /></td>
                        <td><a href=${`#/calls/${e.id}`}>${e.to??e.id}</a></td>
                        <td>${e.answeredBy??`—`}</td>
                        <td class="objective">${e.objective}</td>
                        <td>${tn(e.durationSec)}</td>
                        <td>${e.batchId?V`<a
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
    ${p!==null&&(u>0||e?.nextCursor)?V`
          <nav class="pager" aria-label="Pages of calls">
            <button type="button" class="secondary" disabled=${u===0} onClick=${()=>s(e=>e.slice(0,-1))}>Previous page</button>
            <span aria-live="polite">Page ${u+1}</span>
            <button type="button" class="secondary" disabled=${!e?.nextCursor} onClick=${()=>s(t=>[...t,e.nextCursor])}>Next page</button>
          </nav>
        `:null}
  `}var hn=[`delivered`,`failed`,`gone`];function gn({source:e,version:t=0}){let[n,r]=R(null),[i,a]=R(null),o=()=>e.list().then(r).catch(a);z(()=>void o(),[t]),z(()=>{if(!n?.some(e=>e.state===`pending`))return;let e=setTimeout(()=>void o(),1e3);return()=>clearTimeout(e)},[n]);async function s(t){a(null);try{await e.redeliver(t),await o()}catch(e){a(e)}}return V`
    <h2>Events</h2>
    <${J} error=${i} />
    ${n===null?V`<p>Loading…</p>`:n.length===0?V`<p class="empty">No events yet.</p>`:V`<div class="table-wrap"><table class="events">
            <thead><tr><th scope="col">Event</th><th scope="col">Delivery</th><th scope="col">Attempts</th><th scope="col">Last attempt</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
            <tbody>
              ${n.map(e=>{let t=e.attempts.at(-1);return V`<tr data-event=${e.eventId}>
                  <td>
                    <details class="payload">
                      <summary>${e.event}</summary>
                      <pre tabindex="0"><code>${JSON.stringify(e.payload,null,2)}</code></pre>
                    </details>
                  </td>
                  <td><span class=${`state state-${e.state}`}>${e.state}</span></td>
                  <td>${e.attempts.length+e.attemptsOmitted}</td>
                  <td>${t?`${t.statusCode??t.error??`—`} · ${t.latencyMs} ms${t.redelivery?` · redelivery`:``}`:`—`}</td>
                  <td>${hn.includes(e.state)?V`<button type="button" class="secondary" onClick=${()=>s(e.eventId)}>Redeliver</button>`:null}</td>
                </tr>`})}
            </tbody>
          </table></div>`}
  `}function _n({uses:e,live:t}){return V`
    <h2 id="tool-calls">Tool calls</h2>
    ${e.length===0?V`<p class="empty">${t?`No tool called yet.`:`The agent called none of its tools.`}</p>`:V`<div class="table-wrap">
          <table class="tool-calls" aria-labelledby="tool-calls">
            <thead><tr><th>Tool</th><th>Arguments</th><th>Status</th><th>Latency</th><th>Error</th><th>Called</th></tr></thead>
            <tbody>
              ${e.map((e,t)=>V`<tr data-tool-call=${t}>
                  <td><code>${e.name}</code></td>
                  <td class="arguments"><code>${JSON.stringify(e.arguments)}</code></td>
                  <td><span class=${`state state-${e.status===`ok`?`delivered`:`failed`}`}>${e.status}</span></td>
                  <td>${e.latencyMs} ms</td>
                  <td>${e.error??`—`}</td>
                  <td>${X(e.at)}</td>
                </tr>`)}
            </tbody>
          </table>
        </div>`}
  `}function vn(e,t){let n=[],r=e;for(let e of t){let t=r.indexOf(e);e===``||t<0||(n.push(r.slice(0,t),V`<mark>${e}</mark>`),r=r.slice(t+e.length))}return n.push(r),n}var yn=e=>e===null?`—`:`${e} ms`;function bn({latency:e}){return V`
    <h2>Latency</h2>
    <dl class="record latency">
      <dt>First audio</dt><dd>${yn(e.firstAudioMs)} after the answer</dd>
      <dt>Answers</dt><dd>${e.turns.length===0?`—`:V`median ${yn(e.p50Ms)}, 95th percentile ${yn(e.p95Ms)} after the callee stopped (${e.turns.length})`}</dd>
      <dt>Barge-ins</dt><dd>${e.bargeIns.length===0?`none`:e.bargeIns.map(e=>`at ${nn(e.atMs/1e3)}, cleared in ${e.clearMs} ms`).join(`; `)}</dd>
    </dl>
    ${e.turns.length===0?null:V`<table class="latency-turns">
          <thead><tr><th>Callee stopped</th><th>Agent answered after</th></tr></thead>
          <tbody>${e.turns.map(e=>V`<tr><td>${nn(e.atMs/1e3)}</td><td>${e.afterMs} ms</td></tr>`)}</tbody>
        </table>`}
  `}function xn({record:e}){let t=e.transfer;return V`
    <h2>Transfers</h2>
    <dl class="record transfers">
      ${t?V`<dt>Allowed</dt><dd>${t.mode===`warm`?`Warm`:`Cold`} transfer to ${t.to}, when ${t.when}</dd>`:null}
      <dt>Transferred</dt><dd>${e.transferredTo?`to ${e.transferredTo}, ${X(e.transferredAt)}`:`not transferred`}</dd>
    </dl>
  `}function Sn({id:e}){let[t,n]=R(null),[r,i]=R([]),[a,o]=R([]),[s,c]=R(0),[l,u]=R(null),[d,f]=R(null),[p,m]=R(null),[h,g]=R(-1),_=Se(null);if(document.title=`Call ${e.slice(0,8)} · svc console`,z(()=>{let t=new AbortController,r=null,a=()=>!t.signal.aborted,s=async()=>{let s=await q().getCall(e,{signal:t.signal});if(!a())return s;if(n(s),s.turns&&i(s.turns),o(s.toolCalls??[]),s.recordingUrl&&!r){let n=await q().getCallRecording(e,{signal:t.signal});if(!a())return s;r=URL.createObjectURL(n.audio),m(r)}return s};return(async()=>{try{let r=await s();if(!a()||!en(r.status))return;let l=[],u=[...r.toolCalls??[]];for await(let r of q().streamCall(e,{signal:t.signal})){if(!a())return;if(r.event===`turn`){let{speaker:e,text:t,startSec:n,endSec:a}=r.data;l[r.data.index]={speaker:e,text:t,startSec:n,endSec:a},i([...l])}else if(r.event===`tool_call`){let{name:e,arguments:t,status:n,latencyMs:i,error:a,at:s}=r.data;u[r.data.index]={name:e,arguments:t,status:n,latencyMs:i,error:a,at:s},o([...u])}else{let{status:i,latency:o}=r.data;n(e=>e&&{...e,status:i,...o?{latency:o}:{}});let s=await q().getCall(e,{signal:t.signal});if(!a())return;n(s),c(e=>e+1)}}await s(),a()&&c(e=>e+1)}catch(e){a()&&u(e)}})(),()=>{t.abort(),r&&URL.revokeObjectURL(r)}},[e]),l)return V`<h1>Call</h1><${J} error=${l} /><p><a href="#/calls">All calls</a></p>`;if(!t)return V`<h1>Call</h1><p>Loading…</p>`;let v=t.evidence??{},y=e=>Object.values(v).flatMap(t=>t&&t.turn===e?[t.quote]:[]);async function b(){f(null);try{n(await q().cancelCall(e))}catch(e){f(e)}}function x(e){let t=_.current;t&&(t.currentTime=r[e].startSec,g(e))}function S(){let e=_.current?.currentTime??0;g(r.findIndex(t=>e>=t.startSec&&e<t.endSec))}return V`
    <h1>Call to ${t.to}</h1>
    <p class="status-line"><${Y} status=${t.status} />
      ${en(t.status)?V`<button type="button" class="danger" onClick=${b}>Cancel call</button>`:null}
    </p>
    <${J} error=${d} />
    <dl class="record">
      <dt>Call id</dt><dd><code class="call-id">${t.id}</code></dd>
      <dt>Created</dt><dd>${X(t.createdAt)}</dd>
      <dt>Caller id</dt><dd>${t.callerId??`—`}</dd>
      <dt>Objective</dt><dd>${t.objective}</dd>
      <dt>Started</dt><dd class="started">${X(t.startedAt)}</dd>
      <dt>Ended</dt><dd>${X(t.endedAt)}</dd>
      <dt>Duration</dt><dd>${tn(t.durationSec)}</dd>
      <dt>Minutes billed</dt><dd class="minutes">${t.billedMinutes??`—`}</dd>
      <dt>Answered by</dt><dd class="answered-by">${t.answeredBy??`—`}</dd>
      <dt>Voice, language</dt><dd>${t.voice}, ${t.language}</dd>
      ${t.endReason?V`<dt>Ended by</dt><dd><code>${t.endReason}</code></dd>`:null}
      ${t.holdSec?V`<dt>On hold</dt><dd>${tn(t.holdSec)}</dd>`:null}
      ${t.batchId?V`<dt>Batch</dt><dd><a href=${`#/batches/${t.batchId}`}>${t.batchId}</a></dd>`:null}
      ${t.error?V`<dt>Error</dt><dd><code>${t.error}</code></dd>`:null}
      ${t.summary?V`<dt>Summary</dt><dd>${t.summary}</dd>`:null}
      <dt>Metadata</dt><dd>${t.metadata&&Object.keys(t.metadata).length>0?V`<dl class="metadata">${Object.entries(t.metadata).map(([e,t])=>V`<dt>${e}</dt><dd>${t}</dd>`)}</dl>`:`none`}</dd>
    </dl>
    ${t.transfer||t.transferredTo?V`<${xn} record=${t} />`:null}

    ${t.extracted&&Object.keys(t.extracted).length>0?V`
          <h2>Extracted</h2>
          <dl class="extracted">
            ${Object.entries(t.extracted).map(([e,t])=>V`
                <dt>${e}</dt>
                <dd>
                  <strong>${t===null?`—`:String(t)}</strong>
                  ${v[e]?V` <button type="button" class="link" onClick=${()=>x(v[e].turn)}>“${v[e].quote}” (turn ${v[e].turn+1})</button>`:null}
                </dd>
              `)}
          </dl>
        `:null}

    <h2>Conversation</h2>
    ${p?V`<audio ref=${_} controls src=${p} onTimeUpdate=${S} aria-label="Recording of the call"></audio>`:null}
    ${r.length===0?V`<p class="empty">${en(t.status)?`Nothing said yet.`:`No conversation: the call was not answered.`}</p>`:V`<ol class="turns">
          ${r.map((e,t)=>V`
              <li class=${`turn ${e.speaker}${t===h?` current`:``}`} data-turn=${t}>
                <button type="button" class="turn-button" onClick=${()=>x(t)} aria-current=${t===h?`true`:void 0}>
                  <span class="who">${e.speaker===`agent`?`Agent`:`Callee`} · ${nn(e.startSec)}</span>
                  <span class="said">${vn(e.text,y(t))}</span>
                </button>
              </li>
            `)}
        </ol>`}

    ${t.tools||a.length>0?V`<${_n} uses=${a} live=${en(t.status)} />`:null}

    ${t.latency?V`<${bn} latency=${t.latency} />`:null}

    <details class="raw">
      <summary>Raw record (JSON)</summary>
      <pre tabindex="0"><code>${JSON.stringify(t,null,2)}</code></pre>
    </details>
    <${gn} source=${{list:()=>q().listCallEvents(e),redeliver:t=>q().redeliverEvent(e,t)}} version=${s} />
    <p><a href="#/calls">All calls</a></p>
  `}var Cn={invalid_number:`to`,to_required:`to`,invalid_objective:`objective`,objective_required:`objective`,invalid_context:`context`,invalid_fields:`fields`,invalid_webhook_url:`webhookUrl`,invalid_caller_id:`callerId`,invalid_voice:`voice`,invalid_language:`language`,invalid_metadata:`metadata`,invalid_voicemail:`voicemail`,invalid_start_at:`startAt`,invalid_redial:`redial`,invalid_calling_window:`callingWindow`,invalid_machine_detection:`machineDetection`,invalid_on_behalf_of:`onBehalfOf`,invalid_recording_notice:`recordingNotice`,invalid_send_digits:`sendDigits`,invalid_tools:`tools`,invalid_transfer:`transfer`,invalid_hold:`hold`},wn=[`alloy`,`ash`,`ballad`,`coral`,`echo`,`sage`,`shimmer`,`verse`,`marin`,`cedar`],Tn=[[`mon`,`Monday`],[`tue`,`Tuesday`],[`wed`,`Wednesday`],[`thu`,`Thursday`],[`fri`,`Friday`],[`sat`,`Saturday`],[`sun`,`Sunday`]],En={to:``,objective:``,context:``,onBehalfOf:``,webhookUrl:``,callerId:``,voice:``,language:``,metadata:``,fields:[],windowStart:``,windowEnd:``,windowDays:[],windowZone:``,voicemail:``,voicemailMessage:``,redialNoAnswer:``,redialVoicemail:``,redialAfter:``,startAt:``,transferTo:``,transferMode:``,transferWhen:``,holdMaxWaitSec:``,recordingNotice:``,machineDetection:``,sendDigits:``,tools:[],extra:{}},Dn=/^\+[1-9][0-9]{6,14}$/,On=/^[A-Za-z_][A-Za-z0-9_]{0,63}$/;function kn(e,t){switch(e){case`fields`:return t.fields.length>0?`field-0-name`:`f-fields-add`;case`tools`:return t.tools.length>0?`tool-0-name`:`f-tools-add`;case`callingWindow`:return`f-window-start`;case`redial`:return`f-redial-after`;case`transfer`:return`f-transfer-to`;case`hold`:return`f-hold`;default:return`f-${e}`}}var An={destination_blocked:`to`,destination_opted_out:`to`,caller_id_not_owned:`callerId`};function jn(e,t,n){if(e===`unknown_field`)return`f-json`;let r=Cn[e]??An[e];if(!r)return null;let i=RegExp(`\\b${r}[.\\[](\\d+)`).exec(t),a=r===`fields`?n.fields.length:r===`tools`?n.tools.length:0;return i&&Number(i[1])<a?`${r===`fields`?`field`:`tool`}-${i[1]}-name`:kn(r,n)}function Mn(e,t){if(e.error===`unknown_field`)return`f-json`;let[n,r]=e.field.split(`.`);if(!Object.values(Cn).includes(n)&&!Object.values(An).includes(n))return jn(e.error,e.message,t);let i=n===`fields`?t.fields.length:n===`tools`?t.tools.length:0;return r!==void 0&&/^\d+$/.test(r)&&Number(r)<i?`${n===`fields`?`field`:`tool`}-${r}-name`:kn(n,t)}var Z=e=>e.trim();function Nn(e){let t=[],n={...e.extra},r=t=>{let r=Z(e[t]);r!==``&&(n[t]=r)};Z(e.to)===``?t.push({control:`f-to`,message:`Enter the number to call.`}):Dn.test(Z(e.to))||t.push({control:`f-to`,message:`Write the number to call with a plus sign and its country code, such as +14155550123.`}),Z(e.objective)===``&&t.push({control:`f-objective`,message:`Say what the call should achieve.`});for(let e of[`to`,`objective`,`context`,`onBehalfOf`,`webhookUrl`,`callerId`,`voice`,`language`,`sendDigits`])r(e);Z(e.callerId)!==``&&!Dn.test(Z(e.callerId))&&t.push({control:`f-callerId`,message:`Write the caller id with a plus sign and its country code, or leave it empty.`});let i=e.metadata.split(`
`).filter(e=>e.trim()!==``);if(i.length>0){let e={};for(let n of i){let r=n.indexOf(`=`);r<1?t.push({control:`f-metadata`,message:`Write each metadata line as key=value; "${n.trim()}" has no key.`}):e[n.slice(0,r).trim()]=n.slice(r+1).trim()}n.metadata=e}if(e.fields.length>0){let r=new Set;n.fields=e.fields.map((e,n)=>{let i=e.name.trim();On.test(i)?r.has(i)&&t.push({control:`field-${n}-name`,message:`Field ${n+1}: another field is already called ${i}.`}):t.push({control:`field-${n}-name`,message:`Field ${n+1}: a name starts with a letter or underscore, then letters, digits or underscores (at most 64).`}),r.add(i);let a={name:i,type:e.type};return e.description.trim()!==``&&(a.description=e.description.trim()),a})}if(e.windowStart!==``||e.windowEnd!==``||e.windowDays.length>0||Z(e.windowZone)!==``){e.windowStart===``&&t.push({control:`f-window-start`,message:`Give the time the calling window opens.`}),e.windowEnd===``?t.push({control:`f-window-end`,message:`Give the time the calling window closes.`}):e.windowStart!==``&&e.windowEnd<=e.windowStart&&t.push({control:`f-window-end`,message:`The calling window must close after it opens.`});let r={start:e.windowStart,end:e.windowEnd};e.windowDays.length>0&&(r.days=Tn.map(([e])=>e).filter(t=>e.windowDays.includes(t))),Z(e.windowZone)!==``&&(r.timeZone=Z(e.windowZone)),n.callingWindow=r}if(e.voicemail===`hangup`&&(n.voicemail={action:`hangup`}),e.voicemail===`leave_message`&&(Z(e.voicemailMessage)===``&&t.push({control:`f-voicemail-message`,message:`Write the message to leave after the beep.`}),n.voicemail={action:`leave_message`,message:Z(e.voicemailMessage)}),e.redialNoAnswer!==``||e.redialVoicemail!==``||e.redialAfter!==``){e.redialAfter===``&&t.push({control:`f-redial-after`,message:`Say how many minutes to wait before calling again (5 to 1440).`});let r={afterMinutes:Number(e.redialAfter)};e.redialNoAnswer!==``&&(r.onNoAnswer=Number(e.redialNoAnswer)),e.redialVoicemail!==``&&(r.onVoicemail=Number(e.redialVoicemail)),n.redial=r}if(e.startAt!==``){let r=new Date(e.startAt);Number.isNaN(r.getTime())?t.push({control:`f-startAt`,message:`Give a date and time to dial at.`}):n.startAt=r.toISOString()}if(Z(e.transferTo)!==``||e.transferMode!==``||Z(e.transferWhen)!==``){Z(e.transferTo)===``&&t.push({control:`f-transfer-to`,message:`Give the number of the person to transfer to.`});let r={to:Z(e.transferTo)};e.transferMode!==``&&(r.mode=e.transferMode),Z(e.transferWhen)!==``&&(r.when=Z(e.transferWhen)),n.transfer=r}return e.holdMaxWaitSec!==``&&(n.hold={maxWaitSec:Number(e.holdMaxWaitSec)}),e.recordingNotice!==``&&(n.recordingNotice=e.recordingNotice===`true`),e.machineDetection!==``&&(n.machineDetection=e.machineDetection),e.tools.length>0&&(n.tools=e.tools.map((e,n)=>{let r={};for(let t of[`name`,`description`,`url`])e[t].trim()!==``&&(r[t]=e[t].trim());if(e.parameters.trim()!==``)try{r.parameters=JSON.parse(e.parameters)}catch{t.push({control:`tool-${n}-parameters`,message:`The parameters of tool ${n+1} are not valid JSON.`})}return e.timeoutMs.trim()!==``&&(r.timeoutMs=Number(e.timeoutMs)),r})),{body:n,problems:t}}var Q=e=>e==null?``:typeof e==`string`?e:JSON.stringify(e),$=e=>typeof e==`object`&&e&&!Array.isArray(e)?e:{},Pn=new Set([`to`,`objective`,`context`,`onBehalfOf`,`webhookUrl`,`callerId`,`voice`,`language`,`sendDigits`,`metadata`,`fields`,`callingWindow`,`voicemail`,`redial`,`startAt`,`transfer`,`hold`,`recordingNotice`,`machineDetection`,`tools`]);function Fn(e){let t=new Date(e);return Number.isNaN(t.getTime())?``:new Date(t.getTime()-t.getTimezoneOffset()*6e4).toISOString().slice(0,16)}function In(e){let t=$(e.callingWindow),n=$(e.voicemail),r=$(e.redial),i=$(e.transfer),a=Object.fromEntries(Object.entries(e).filter(([e])=>!Pn.has(e)));return{...En,to:Q(e.to),objective:Q(e.objective),context:Q(e.context),onBehalfOf:Q(e.onBehalfOf),webhookUrl:Q(e.webhookUrl),callerId:Q(e.callerId),voice:Q(e.voice),language:Q(e.language),sendDigits:Q(e.sendDigits),metadata:Object.entries($(e.metadata)).map(([e,t])=>`${e}=${Q(t)}`).join(`
`),fields:(Array.isArray(e.fields)?e.fields:[]).map(e=>{let t=$(e),n=t.type===`boolean`||t.type===`number`?t.type:`string`;return{name:Q(t.name),type:n,description:Q(t.description)}}),windowStart:Q(t.start),windowEnd:Q(t.end),windowDays:Array.isArray(t.days)?t.days.map(Q):[],windowZone:Q(t.timeZone),voicemail:n.action===`hangup`||n.action===`leave_message`?n.action:``,voicemailMessage:Q(n.message),redialNoAnswer:Q(r.onNoAnswer),redialVoicemail:Q(r.onVoicemail),redialAfter:Q(r.afterMinutes),startAt:typeof e.startAt==`string`?Fn(e.startAt):``,transferTo:Q(i.to),transferMode:i.mode===`cold`||i.mode===`warm`?i.mode:``,transferWhen:Q(i.when),holdMaxWaitSec:Q($(e.hold).maxWaitSec),recordingNotice:e.recordingNotice===!0?`true`:e.recordingNotice===!1?`false`:``,machineDetection:e.machineDetection===`on`||e.machineDetection===`off`?e.machineDetection:``,tools:(Array.isArray(e.tools)?e.tools:[]).map(e=>{let t=$(e);return{name:Q(t.name),description:Q(t.description),parameters:t.parameters===void 0?``:JSON.stringify(t.parameters),url:Q(t.url),timeoutMs:Q(t.timeoutMs)}}),extra:a}}var Ln={name:``,description:``,parameters:``,url:``,timeoutMs:``},Rn=[{key:`name`,label:`Name`,hint:`The name the agent calls it by: letters, digits, underscores or hyphens.`,example:`order_status`,required:!0},{key:`description`,label:`What it does`,hint:`What the tool does and when to use it, told to the agent.`,example:`Looks up where an order is.`,required:!0},{key:`parameters`,label:`Parameters (JSON Schema)`,hint:`A JSON Schema of type object describing its arguments. Leave it empty for a tool without arguments.`,example:`{ "type": "object", "properties": { "question": { "type": "string" } } }`,kind:`textarea`},{key:`url`,label:`Address`,hint:`The URL the service posts each use to, signed as webhooks are.`,example:`https://example.com/tools/orders`,required:!0,kind:`url`},{key:`timeoutMs`,label:`Time limit (ms)`,hint:`How long to wait for its answer: 100 to 20000 milliseconds, 5000 when empty.`,example:`5000`,kind:`number`}];function zn({tools:e,onChange:t,invalid:n}){let r=(n,r)=>i=>t(e.map((e,t)=>t===n?{...e,[r]:i.target.value}:e));return V`
    <fieldset class="tools" aria-describedby="h-tools">
      <legend>Tools the agent may use</legend>
      <small id="h-tools">Your own endpoints the agent may call during the call, up to 10. Each use is on the call's record.</small>
      ${e.map((i,a)=>V`
          <fieldset class="tool" data-tool=${a}>
            <legend>Tool ${a+1}</legend>
            ${Rn.map(e=>{let t=`tool-${a}-${e.key}`,o=n(t,`${t}-hint`),s={id:t,name:t,value:i[e.key],placeholder:e.example,...o.props};return V`<div class="field">
                <label for=${t}>${e.label}${e.required?V` <span aria-hidden="true">*</span>`:``}</label>
                ${e.kind===`textarea`?V`<textarea ...${s} rows="3" onInput=${r(a,e.key)}></textarea>`:V`<input ...${s} type=${e.kind===`number`?`number`:e.kind===`url`?`url`:`text`} min=${e.kind===`number`?100:void 0} max=${e.kind===`number`?2e4:void 0} required=${e.required??!1} onInput=${r(a,e.key)} />`}
                <small id=${`${t}-hint`}>${e.hint}</small>
                ${o.message}
              </div>`})}
            <button type="button" class="secondary" aria-label=${`Remove tool ${a+1}`} onClick=${()=>t(e.filter((e,t)=>t!==a))}>Remove</button>
          </fieldset>
        `)}
      ${e.length<10?V`<button type="button" id="f-tools-add" class="secondary" onClick=${()=>t([...e,{...Ln}])}>Add a tool</button>`:null}
    </fieldset>
  `}var Bn=()=>wn,Vn={number:`Number dialled`,callerId:`Caller id`,voice:`Voice`,language:`Language`,languageSource:`Language from`,minutesRemaining:`Minutes left on the plan`};function Hn(e){if(e==null)return`—`;if(typeof e!=`object`)return String(e);let t=e;return t.e164?`${t.e164} (${[t.country,t.type?.replaceAll(`_`,` `)].filter(Boolean).join(`, `)})`:JSON.stringify(e)}function Un(){let[e,t]=R(En),[n,r]=R(null),[i,a]=R(null),[o,s]=R([]),[c,l]=R(0),[u,d]=R(null),[f,p]=R(!1);document.title=`Place a call · svc console`,z(()=>{if(c===0||o.length===0)return;let e=document.getElementById(o[0].control);e?.closest(`details`)&&!e.closest(`details`).open&&(e.closest(`details`).open=!0),e?.scrollIntoView({block:`center`}),e?.focus({preventScroll:!0})},[c]);let m=e=>{t(e),r(null),a(null),d(null)},h=t=>n=>m({...e,[t]:n.target.value}),g=(t,n)=>r=>m({...e,fields:e.fields.map((e,i)=>i===t?{...e,[n]:r.target.value}:e)}),_=t=>()=>m({...e,windowDays:e.windowDays.includes(t)?e.windowDays.filter(e=>e!==t):[...e.windowDays,t]}),v=e=>o.find(t=>t.control===e);function y(e,t=`h-${e}`){let n=v(e),r=[n?`e-${e}`:null,t].filter(Boolean).join(` `);return{props:{"aria-invalid":n?`true`:void 0,"aria-describedby":r||void 0},message:n?V`<p class="field-error" id=${`e-${e}`}>${n.message}</p>`:null}}function b(e){s(e),l(e=>e+1)}async function x(t){if(i)return b([{control:`f-json`,message:i}]);let{body:n,problems:r}=Nn(e);if(r.length>0)return d(null),b(r);p(!0),s([]);try{if(t){let e=await q().placeCall(n);location.hash=`#/calls/${e.callId}`}else d(await q().preflightCall(n))}catch(t){if(d(null),t instanceof W&&t.problems&&t.problems.length>0)b(t.problems.map(t=>({control:Mn(t,e)??`f-submit`,message:t.message,token:t.error})));else{let{token:n,message:r}=Qt(t);b([{control:jn(n,r,e)??`f-submit`,message:r,token:n}])}}finally{p(!1)}}function S(t,n,r,i={}){let a=y(`f-${t}`),o={id:`f-${t}`,name:t,value:e[t],placeholder:i.placeholder??``,required:i.required??!1,maxLength:i.maxLength,onInput:h(t),...a.props};return V`<div class="field">
      <label for=${`f-${t}`}>${n}${i.required?V` <span aria-hidden="true">*</span>`:``}</label>
      ${i.rows?V`<textarea ...${o} rows=${i.rows}></textarea>`:V`<input ...${o} type=${i.type??`text`} />`}
      <small id=${`h-f-${t}`}>${r}</small>
      ${a.message}
    </div>`}function C(t,n,r,i){let a=y(`f-${t}`);return V`<div class="field">
      <label for=${`f-${t}`}>${n}</label>
      <select id=${`f-${t}`} name=${t} value=${e[t]} onChange=${h(t)} ...${a.props}>
        ${i.map(([e,t])=>V`<option value=${e}>${t}</option>`)}
      </select>
      <small id=${`h-f-${t}`}>${r}</small>
      ${a.message}
    </div>`}let{body:w}=Nn(e),T=n??JSON.stringify(w,null,2),E=y(`f-fields-add`,null),D=y(`f-json`);return V`
    <h1>Place a call</h1>
    <form class="place" noValidate onSubmit=${e=>(e.preventDefault(),x(!0))}>
      <fieldset class="group">
        <legend>The call</legend>
        ${S(`to`,`Number to call`,`In international form: a plus sign, the country code and the number.`,{required:!0,type:`tel`,placeholder:`+14155550123`})}
        ${S(`objective`,`What the call should achieve`,`A clear goal in plain words, up to 4000 characters.`,{required:!0,rows:3,maxLength:4e3,placeholder:`Ask whether the shop is open on Sunday and until what time.`})}
        ${S(`context`,`Background for the agent`,`What the agent should know; never read out to the person called.`,{rows:3,maxLength:1e4})}
        ${S(`onBehalfOf`,`Calling on behalf of`,`Whom the agent says it calls for. Empty: the key’s setting, else a customer.`,{maxLength:200,placeholder:`Tony's Pizzeria`})}
      </fieldset>

      <fieldset class="group" aria-describedby="h-fields">
        <legend>Fields to extract</legend>
        <small id="h-fields">Values read from the conversation after the call, up to 20, each named once.</small>
        ${e.fields.map((t,n)=>{let r=y(`field-${n}-name`);return V`<div class="field-row" data-field=${n}>
            <div class="field">
              <label for=${`field-${n}-name`}>Name</label>
              <input id=${`field-${n}-name`} value=${t.name} onInput=${g(n,`name`)} placeholder="open_sunday" ...${r.props} />
              <small id=${`h-field-${n}-name`}>Letters, digits and underscores.</small>
              ${r.message}
            </div>
            <div class="field">
              <label for=${`field-${n}-type`}>Type</label>
              <select id=${`field-${n}-type`} value=${t.type} onChange=${g(n,`type`)}>
                <option value="string">Text</option>
                <option value="boolean">Yes or no</option>
                <option value="number">Number</option>
              </select>
            </div>
            <div class="field grow">
              <label for=${`field-${n}-description`}>Meaning</label>
              <input id=${`field-${n}-description`} value=${t.description} onInput=${g(n,`description`)} maxLength="500" placeholder="Whether the shop opens on Sundays" />
            </div>
            <button type="button" class="secondary" aria-label=${`Remove field ${n+1}`} onClick=${()=>m({...e,fields:e.fields.filter((e,t)=>t!==n)})}>Remove</button>
          </div>`})}
        ${e.fields.length<20?V`<button type="button" id="f-fields-add" class="secondary" ...${E.props} onClick=${()=>m({...e,fields:[...e.fields,{name:``,type:`string`,description:``}]})}>Add a field</button>`:null}
        ${E.message}
      </fieldset>

      <fieldset class="group">
        <legend>Voice and language</legend>
        ${C(`voice`,`Voice`,`The voice the agent speaks with. Default: the key’s voice, else alloy.`,[[``,`Default`],...Bn().map(e=>[e,e])])}
        ${S(`language`,`Language`,`A language code such as en-US or fr-FR, or auto to follow whoever answers. Empty: guessed from the objective.`,{maxLength:35,placeholder:`en-US`})}
      </fieldset>

      <fieldset class="group" aria-describedby="h-window">
        <legend>When to call</legend>
        <small id="h-window">The hours and days, in the callee’s own time, in which the call may be dialled. Empty: the key’s default window, else any time.</small>
        <div class="field-row">
          ${(()=>{let t=y(`f-window-start`),n=y(`f-window-end`);return V`
              <div class="field">
                <label for="f-window-start">Opens at</label>
                <input id="f-window-start" type="time" value=${e.windowStart} onInput=${h(`windowStart`)} ...${t.props} />
                <small id="h-f-window-start">Local time.</small>
                ${t.message}
              </div>
              <div class="field">
                <label for="f-window-end">Closes at</label>
                <input id="f-window-end" type="time" value=${e.windowEnd} onInput=${h(`windowEnd`)} ...${n.props} />
                <small id="h-f-window-end">Local time, after the opening.</small>
                ${n.message}
              </div>`})()}
        </div>
        <fieldset class="days">
          <legend>Days (none ticked: every day)</legend>
          ${Tn.map(([t,n])=>V`<label class="check"><input type="checkbox" id=${`f-day-${t}`} checked=${e.windowDays.includes(t)} onChange=${_(t)} /> ${n}</label>`)}
        </fieldset>
        ${S(`windowZone`,`Time zone`,`A zone name such as America/New_York. Empty: the zones of the number called.`,{placeholder:`America/New_York`})}
        ${S(`startAt`,`Dial no earlier than`,`In your browser’s time zone, at most 30 days ahead. Empty: at once.`,{type:`datetime-local`})}
      </fieldset>

      <fieldset class="group">
        <legend>If nobody answers</legend>
        ${C(`voicemail`,`When an answering machine picks up`,`Hang up, or leave a message after the beep.`,[[``,`Default: hang up`],[`hangup`,`Hang up`],[`leave_message`,`Leave a message`]])}
        ${e.voicemail===`leave_message`?S(`voicemailMessage`,`Message to leave`,`Said after the beep in the call’s voice and language, up to 1000 characters.`,{rows:2,maxLength:1e3}):null}
        <div class="field-row">
          ${S(`redialNoAnswer`,`Call again after no answer`,`0 to 5 more calls.`,{type:`number`})}
          ${S(`redialVoicemail`,`Call again after voicemail`,`0 to 5 more calls.`,{type:`number`})}
          ${(()=>{let t=y(`f-redial-after`);return V`<div class="field">
              <label for="f-redial-after">Minutes between calls</label>
              <input id="f-redial-after" type="number" min="5" max="1440" value=${e.redialAfter} onInput=${h(`redialAfter`)} ...${t.props} />
              <small id="h-f-redial-after">5 to 1440. Needed to call again.</small>
              ${t.message}
            </div>`})()}
        </div>
        ${C(`machineDetection`,`Listen for answering machines`,`Off: whoever picks up is talked to.`,[[``,`Default`],[`on`,`On`],[`off`,`Off`]])}
      </fieldset>

      <fieldset class="group">
        <legend>Transfer and hold</legend>
        ${(()=>{let t=y(`f-transfer-to`);return V`<div class="field">
            <label for="f-transfer-to">Transfer to</label>
            <input id="f-transfer-to" type="tel" value=${e.transferTo} onInput=${h(`transferTo`)} placeholder="+14155550142" ...${t.props} />
            <small id="h-f-transfer-to">A person the agent may hand the call to. Empty: no transfer.</small>
            ${t.message}
          </div>`})()}
        ${C(`transferMode`,`How to transfer`,`Cold connects at once; warm briefs the person first.`,[[``,`Default: cold`],[`cold`,`Cold`],[`warm`,`Warm`]])}
        ${S(`transferWhen`,`Transfer when`,`In words. Default: when the callee asks to speak to a person.`,{maxLength:500})}
        ${(()=>{let t=y(`f-hold`);return V`<div class="field">
            <label for="f-hold">Longest wait on hold (seconds)</label>
            <input id="f-hold" type="number" min="1" max="86400" value=${e.holdMaxWaitSec} onInput=${h(`holdMaxWaitSec`)} ...${t.props} />
            <small id="h-f-hold">Empty: 600 seconds.</small>
            ${t.message}
          </div>`})()}
      </fieldset>

      <fieldset class="group">
        <legend>Delivery and identity</legend>
        ${S(`webhookUrl`,`Webhook address`,`Where the call’s signed events are sent, an https address.`,{type:`url`,placeholder:`https://example.com/hooks/svc`,maxLength:2048})}
        ${S(`metadata`,`Metadata`,`Your own key=value pairs, one a line, returned with the call and its events.`,{rows:2,placeholder:`order_id=8841`})}
        ${S(`callerId`,`Caller id`,`A number of your account to call from. Empty: the key’s, else the account’s.`,{type:`tel`})}
        ${C(`recordingNotice`,`Say that the call is recorded`,`Turn it off only where the law allows.`,[[``,`Default`],[`true`,`Yes`],[`false`,`No`]])}
        ${S(`sendDigits`,`Keys to press on answer`,`Digits, star and hash; w waits half a second, W a second.`,{placeholder:`1234#`})}
      </fieldset>

      <${zn} tools=${e.tools} invalid=${y} onChange=${t=>m({...e,tools:t})} />

      <details class="advanced">
        <summary>Advanced: the request as JSON</summary>
        <div class="field">
          <label for="f-json">Request body</label>
          <textarea
            id="f-json"
            rows="10"
            spellcheck="false"
            value=${T}
            ...${D.props}
            onInput=${e=>{let n=e.target.value;r(n),d(null);try{let e=JSON.parse(n);if(typeof e!=`object`||!e||Array.isArray(e))throw Error();t(In(e)),a(null)}catch{a(`The request is not a JSON object yet; the form keeps its last values.`)}}}
          ></textarea>
          <small id="h-f-json">The placeCall body the form sends. Editing it here changes the form.</small>
          ${i&&!D.message?V`<p class="hint-warning">${i}</p>`:null}
          ${D.message}
        </div>
      </details>

      ${o.length>0?V`<div class="error-summary" role="alert" id="f-submit" tabindex="-1">
            <p>${o.length===1?`One thing to fix:`:`${o.length} things to fix:`}</p>
            <ul>
              ${o.map(e=>V`<li>
                  ${e.token?V`<code>${e.token}</code> `:null}
                  ${e.control===`f-submit`?e.message:V`<button type="button" class="link" onClick=${()=>document.getElementById(e.control)?.focus()}>${e.message}</button>`}
                </li>`)}
            </ul>
          </div>`:null}
      <div class="actions">
        <button type="button" class="secondary" disabled=${f} onClick=${()=>x(!1)}>Preflight</button>
        <button type="submit" disabled=${f}>Place call</button>
      </div>
    </form>
    ${u?V`<section class="verdict" aria-live="polite">
          <h2>Preflight: it would be placed</h2>
          <dl>
            ${Object.entries(u).map(([e,t])=>V`<dt>${Vn[e]??e}</dt><dd>${Hn(t)}</dd>`)}
          </dl>
        </section>`:null}
  `}var Wn=[`queued`,`running`,`paused`],Gn=[`completed`,`no_answer`,`voicemail`,`declined`,`failed`,`canceled`];function Kn({batch:e}){let t=e.counts,n=Gn.reduce((e,n)=>e+(t[n]??0),0);return V`
    <label>
      ${n} of ${e.total} calls ended
      <progress max=${e.total} value=${n}>${n} of ${e.total}</progress>
    </label>
    <p class="counts">${Object.entries(t).filter(([,e])=>e>0).map(([e,t])=>`${e.replace(`_`,` `)} ${t}`).join(` · `)}</p>
  `}function qn(){let[e,t]=R(null),[n,r]=R(null);document.title=`Batches · svc console`;let i=()=>q().listBatches({limit:50}).then(e=>t(e.batches)).catch(r);z(()=>{i();let e=setInterval(()=>void i(),3e3);return()=>clearInterval(e)},[]);async function a(e){try{await q().cancelBatch(e),await i()}catch(e){r(e)}}return V`
    <h1>Batches</h1>
    <p><a href="#/batches/new">New batch from a CSV file</a></p>
    <${J} error=${n} />
    ${e===null?V`<p>Loading…</p>`:e.length===0?V`<${rn}>No batches yet. Create one from a CSV file, or with the API's createBatch.<//>`:V`<ul class="batches">
            ${e.map(e=>V`<li class="batch" data-batch=${e.id}>
                <div class="batch-head">
                  <${Y} status=${e.status} />
                  <a href=${`#/calls?batch=${e.id}`}>${e.id.slice(0,8)}</a>
                  <span>${X(e.createdAt)}</span>
                  ${e.stopReason?V`<span>(${e.stopReason})</span>`:null}
                  <a href=${`#/batches/${e.id}`} aria-label=${`Events of batch ${e.id.slice(0,8)}`}>Events</a>
                  ${Wn.includes(e.status)?V`<button type="button" class="danger" onClick=${()=>a(e.id)}>Cancel batch</button>`:null}
                </div>
                <${Kn} batch=${e} />
              </li>`)}
          </ul>`}
  `}function Jn({id:e}){let[t,n]=R(null),[r,i]=R(null),[a,o]=R(null);document.title=`Batch ${e.slice(0,8)} · svc console`;let s=t!==null&&Wn.includes(t.status),[c,l]=R(null),u=()=>Promise.all([q().getBatch(e),q().listBatchRows(e,{limit:100})]).then(([e,t])=>{n(e),l(t.rows)}).catch(i);if(z(()=>void u(),[e]),z(()=>{if(!s)return;let e=setInterval(()=>void u(),3e3);return()=>clearInterval(e)},[e,s]),r)return V`<h1>Batch</h1><${J} error=${r} /><p><a href="#/batches">All batches</a></p>`;if(!t)return V`<h1>Batch</h1><p>Loading…</p>`;async function d(){o(null);try{n(await q().cancelBatch(e))}catch(e){o(e)}}return V`
    <h1>Batch ${e.slice(0,8)}</h1>
    <p class="status-line"><${Y} status=${t.status} />
      ${s?V`<button type="button" class="danger" onClick=${d}>Cancel batch</button>`:null}
    </p>
    <${J} error=${a} />
    <dl class="record">
      <dt>Created</dt><dd>${X(t.createdAt)}</dd>
      <dt>Started</dt><dd>${X(t.startedAt)}</dd>
      <dt>Ended</dt><dd>${X(t.endedAt)}</dd>
      ${t.stopReason?V`<dt>Stop reason</dt><dd><code>${t.stopReason}</code></dd>`:null}
      <dt>Calls</dt><dd><a href=${`#/calls?batch=${t.id}`}>The batch's calls</a></dd>
    </dl>
    <${Kn} batch=${t} />
    <h2 id="batch-rows">Rows</h2>
    ${c===null?V`<p>Loading…</p>`:V`<div class="table-wrap" tabindex="0" role="region" aria-labelledby="batch-rows">
          <table class="batch-rows">
            <thead><tr><th scope="col">Index</th><th scope="col">Number</th><th scope="col">Row</th><th scope="col">Calls</th></tr></thead>
            <tbody>
              ${c.map(e=>V`<tr data-row=${e.index}>
                  <td>${e.index}</td>
                  <td>${e.to}</td>
                  <td>${e.state}${e.reason?V` (<code>${e.reason}</code>)`:null}</td>
                  <td>${e.calls.length===0?`—`:e.calls.map((t,n)=>V`${n>0?`, `:``}<a href=${`#/calls/${t.id}`} aria-label=${`Call ${n+1} of row ${e.index}: ${t.status.replace(`_`,` `)}`}><${Y} status=${t.status} /></a>`)}</td>
                </tr>`)}
            </tbody>
          </table>
        </div>`}
    <${gn} source=${{list:()=>q().listBatchEvents(e),redeliver:t=>q().redeliverBatchEvent(e,t)}} version=${+!s} />
    <p><a href="#/batches">All batches</a></p>
  `}function Yn(e){let t=e.startsWith(`﻿`)?e.slice(1):e,n=[],r=[],i=``,a=1,o=0,s=!1,c=()=>{r.push(i),i=``},l=()=>{c(),s&&n.push(r),r=[],s=!1};for(;o<t.length;){let e=t[o];if(e===`"`){if(i!==``)return{ok:!1,line:a,message:`Line ${a}: a quote inside a field that does not start with one; quote the whole field and double its quotes.`};s=!0;let e=a;for(o++;;){if(o>=t.length)return{ok:!1,line:e,message:`Line ${e}: a quoted field is never closed.`};let n=t[o];if(n===`"`){if(t[o+1]===`"`){i+=`"`,o+=2;continue}o++;break}(n===`
`||n===`\r`&&t[o+1]!==`
`)&&a++,i+=n,o++}let n=t[o];if(n!==void 0&&n!==`,`&&n!==`
`&&n!==`\r`)return{ok:!1,line:a,message:`Line ${a}: text after a closing quote; a field is either quoted whole or not at all.`};n===`,`&&(c(),o++,o>=t.length&&l())}else e===`,`?(s=!0,c(),o++,o>=t.length&&l()):e===`\r`||e===`
`?(l(),o+=e===`\r`&&t[o+1]===`
`?2:1,a++):(s=!0,i+=e,o++)}return(s||i!==``)&&l(),{ok:!0,rows:n}}var Xn=[[`ignore`,`Leave out`],[`to`,`Number to call`],[`metadata`,`Metadata (key: the column’s name)`],[`objective`,`Objective of the call`],[`context`,`Background for the agent`],[`onBehalfOf`,`Calling on behalf of`],[`voice`,`Voice`],[`language`,`Language`],[`callerId`,`Caller id`],[`webhookUrl`,`Webhook address`],[`sendDigits`,`Keys to press on answer`]];function Zn(e){let t=e.trim().toLowerCase();if([`to`,`number`,`phone`,`phone number`,`telephone`,`mobile`].includes(t))return`to`;let n=Xn.find(([e])=>e.toLowerCase()===t&&e!==`ignore`&&e!==`metadata`);return n?n[0]:`metadata`}function Qn(e,t,n){let r=e.rows.map(n=>{let r={},i={};return t.forEach((t,a)=>{let o=(n[a]??``).trim();t!==`ignore`&&o!==``&&(t===`metadata`?i[e.header[a].trim()]=o:r[t]=o)}),Object.keys(i).length>0&&(r.metadata=i),r}),i={};n.objective.trim()!==``&&(i.objective=n.objective.trim()),n.webhookUrl.trim()!==``&&(i.webhookUrl=n.webhookUrl.trim());let a={calls:r,defaults:i};return n.maxConcurrency!==``&&(a.maxConcurrency=Number(n.maxConcurrency)),a}function $n(){let[e,t]=R(null),[n,r]=R(null),[i,a]=R([]),[o,s]=R({objective:``,webhookUrl:``,maxConcurrency:``}),[c,l]=R(null),[u,d]=R(null),[f,p]=R(!1);document.title=`New batch · svc console`;async function m(e){let n=e.target.files?.[0];if(l(null),d(null),t(null),!n)return;let i=Yn(await n.text());if(!i.ok)return r(`${n.name}: ${i.message}`);if(i.rows.length<2)return r(`${n.name}: the file needs a line naming its columns and at least one row.`);let[o,...s]=i.rows;r(null),t({name:n.name,header:o,rows:s}),a(o.map(Zn))}let h=()=>{l(null),d(null)};async function g(t){if(e){p(!0),d(null);try{let n=Qn(e,i,o);if(t){let e=await q().createBatch(n);location.hash=`#/batches/${e.batchId}`}else l(await q().preflightBatch(n))}catch(e){l(null),d(e)}finally{p(!1)}}}let _=new Map((c?.errors??[]).map(e=>[e.index,e])),v=i.indexOf(`to`);return V`
    <h1>New batch from a CSV file</h1>
    <p>The file’s first line names its columns; every other line is one call. Choose what each column is, check every row, then create the batch.</p>
    <form class="place" noValidate onSubmit=${e=>(e.preventDefault(),g(!1))}>
      <div class="field">
        <label for="csv-file">CSV file</label>
        <input id="csv-file" type="file" accept=".csv,text/csv" onChange=${m} aria-describedby=${n?`csv-file-error h-csv-file`:`h-csv-file`} aria-invalid=${n?`true`:void 0} />
        <small id="h-csv-file">Comma-separated, with quotes around a value holding a comma, a quote or a line break. Read in your browser.</small>
        ${n?V`<p class="field-error" id="csv-file-error" role="alert">${n}</p>`:null}
      </div>
      ${e?V`
            <fieldset class="group">
              <legend>Columns of ${e.name} (${e.rows.length} ${e.rows.length===1?`row`:`rows`})</legend>
              ${e.header.map((e,t)=>V`<div class="field">
                  <label for=${`csv-col-${t}`}>Column “${e}”</label>
                  <select
                    id=${`csv-col-${t}`}
                    value=${i[t]}
                    onChange=${e=>{a(i.map((n,r)=>r===t?e.target.value:n)),h()}}
                  >
                    ${Xn.map(([e,t])=>V`<option value=${e}>${t}</option>`)}
                  </select>
                </div>`)}
              ${v<0?V`<p class="field-error">No column is the number to call yet.</p>`:null}
            </fieldset>
            <fieldset class="group">
              <legend>Shared by every call</legend>
              <div class="field">
                <label for="batch-objective">Objective of the calls</label>
                <textarea id="batch-objective" rows="3" value=${o.objective} onInput=${e=>(s({...o,objective:e.target.value}),h())} aria-describedby="h-batch-objective"></textarea>
                <small id="h-batch-objective">What each call should achieve, unless its row gives its own.</small>
              </div>
              <div class="field">
                <label for="batch-webhookUrl">Webhook address</label>
                <input id="batch-webhookUrl" type="url" value=${o.webhookUrl} onInput=${e=>(s({...o,webhookUrl:e.target.value}),h())} aria-describedby="h-batch-webhookUrl" />
                <small id="h-batch-webhookUrl">Where each call’s signed events are sent. Empty: none.</small>
              </div>
              <div class="field">
                <label for="batch-maxConcurrency">Calls at once</label>
                <input id="batch-maxConcurrency" type="number" min="1" max="100" value=${o.maxConcurrency} onInput=${e=>(s({...o,maxConcurrency:e.target.value}),h())} aria-describedby="h-batch-maxConcurrency" />
                <small id="h-batch-maxConcurrency">At most this many live at a time, 1 to 100. Empty: 5.</small>
              </div>
            </fieldset>
            <div class="actions">
              <button type="submit" class="secondary" disabled=${f}>Check rows</button>
              <button type="button" id="batch-create" disabled=${f||!c?.valid} onClick=${()=>g(!0)}>Create batch</button>
            </div>
          `:null}
    </form>
    <${J} error=${u} />
    ${c&&e?V`<section class="csv-check" aria-live="polite">
          <h2>${c.valid?`All ${c.total} rows can be called`:`${c.errors.length} of ${c.total} rows cannot be called`}</h2>
          <div class="table-wrap" tabindex="0" role="region" aria-label="Rows checked">
            <table class="csv-rows">
              <thead><tr><th scope="col">Index</th><th scope="col">Number</th><th scope="col">Check</th></tr></thead>
              <tbody>
                ${e.rows.map((e,t)=>{let n=_.get(t);return V`<tr data-row=${t} class=${n?`bad`:`good`}>
                    <td>${t}</td>
                    <td>${v<0?`—`:e[v]}</td>
                    <td>${n?V`<span class="state state-failed"><code>${n.error}</code></span> ${n.message}`:V`<span class="state state-delivered">ok</span>`}</td>
                  </tr>`})}
              </tbody>
            </table>
          </div>
        </section>`:null}
  `}function er(){let[e,t]=R(null),[n,r]=R(null),[i,a]=R(``),[o,s]=R(``),[c,l]=R(null);document.title=`Do-not-call list · svc console`;let u=async e=>{try{let n=await q().listDoNotCall({limit:50,...e?{after:e}:{}});t(t=>e?[...t??[],...n.numbers]:n.numbers),r(n.nextAfter??null)}catch(e){l(e)}};z(()=>void u(),[]);async function d(e){e.preventDefault(),l(null);try{await q().addDoNotCall(i.trim(),o.trim()?{reason:o.trim()}:{}),a(``),s(``),await u()}catch(e){l(e)}}async function f(e){l(null);try{await q().removeDoNotCall(e),await u()}catch(e){l(e)}}return V`
    <h1>Do-not-call list</h1>
    <form class="inline" onSubmit=${d}>
      <label for="dnc-number">Number</label>
      <input id="dnc-number" type="text" required placeholder="+14155550123" value=${i} onInput=${e=>a(e.target.value)} />
      <label for="dnc-reason">Reason</label>
      <input id="dnc-reason" type="text" placeholder="asked not to be called" value=${o} onInput=${e=>s(e.target.value)} />
      <button type="submit">Add</button>
    </form>
    <${J} error=${c} />
    ${e===null?V`<p>Loading…</p>`:e.length===0?V`<${rn}>The list is empty: every number may be called.<//>`:V`<div class="table-wrap"><table>
            <thead><tr><th scope="col">Number</th><th scope="col">Reason</th><th scope="col">Source</th><th scope="col">Added</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
            <tbody>
              ${e.map(e=>V`<tr data-number=${e.number}>
                  <td>${e.number}</td><td>${e.reason??`—`}</td><td>${e.source}</td><td>${X(e.addedAt)}</td>
                  <td><button type="button" class="secondary" onClick=${()=>f(e.number)} aria-label=${`Remove ${e.number}`}>Remove</button></td>
                </tr>`)}
            </tbody>
          </table></div>`}
    ${n?V`<button type="button" class="secondary" onClick=${()=>u(n)}>More</button>`:null}
  `}var tr=864e5,nr=[7,30,90],rr=(e,t=Date.now())=>Math.floor(t/tr)*tr-(e-1)*tr,ir=e=>e===null?`—`:`${Math.round(e*1e3)/10}%`,ar=e=>e===null?`—`:`${e} ms`,or=e=>e.replace(`_`,` `),sr=e=>new Date(`${e}T00:00:00Z`).toLocaleDateString(void 0,{month:`short`,day:`numeric`,timeZone:`UTC`});function cr({caption:e,what:t,counts:n,total:r,link:i}){return V`
    <div class="table-wrap">
      <table>
        <caption class="visually-hidden">${e}</caption>
        <thead><tr><th scope="col">${t}</th><th scope="col" class="num">Calls</th><th scope="col" class="num">Share</th></tr></thead>
        <tbody>
          ${Object.entries(n).map(([e,t])=>V`
              <tr key=${e}>
                <th scope="row"><a href=${i(e)}>${e===`none`?`no one`:or(e)}</a></th>
                <td class="num">${t}</td>
                <td class="num">${r===0?`—`:`${Math.round(t/r*100)}%`}</td>
              </tr>
            `)}
        </tbody>
      </table>
    </div>
  `}function lr({perDay:e}){let t=Math.max(0,...e.map(e=>e.calls)),n=Math.max(1,t),r=e[0],i=e.at(-1);return V`
    <figure class="per-day" aria-labelledby="per-day-title">
      <h2 id="per-day-title">Calls per day</h2>
      <ol class="bars" aria-hidden="true">
        ${e.map(e=>V`<li key=${e.date} title=${`${sr(e.date)}: ${e.calls}`}><span class="bar" style=${{height:`${e.calls/n*100}%`}}></span></li>`)}
      </ol>
      <div class="bars-axis" aria-hidden="true"><span>${r?sr(r.date):``}</span><span>most in a day: ${t}</span><span>${i?sr(i.date):``}</span></div>
      <details>
        <summary>Calls per day as a table</summary>
        <div class="table-wrap">
          <table>
            <thead><tr><th scope="col">Day (UTC)</th><th scope="col" class="num">Calls</th></tr></thead>
            <tbody>${e.map(e=>V`<tr key=${e.date}><td>${e.date}</td><td class="num">${e.calls}</td></tr>`)}</tbody>
          </table>
        </div>
      </details>
    </figure>
  `}function ur(){let[e,t]=R(30),[n,r]=R(null),[i,a]=R(null);document.title=`Overview · svc console`,z(()=>{let t=new AbortController;return r(null),q().getStats({createdFrom:new Date(rr(e)).toISOString(),signal:t.signal}).then(e=>{r(e),a(null)}).catch(e=>t.signal.aborted||a(e)),()=>t.abort()},[e]);let o=new Date(rr(e)).toISOString(),s=e=>`#/calls?${e}&from=${encodeURIComponent(o)}`,c=n,l=c?.minutes.plan;return V`
    <h1>Overview</h1>
    <fieldset class="period">
      <legend>Period</legend>
      ${nr.map(n=>V`
          <label key=${n}>
            <input type="radio" name="period" value=${n} checked=${e===n} onChange=${()=>t(n)} />
            Last ${n} days
          </label>
        `)}
    </fieldset>
    <${J} error=${i} />
    ${c===null?i?null:V`<p aria-live="polite">Loading…</p>`:V`
          <p class="counts" aria-live="polite">${c.calls} calls since ${sr(c.perDay[0].date)} (UTC days).</p>
          <dl class="figures">
            <div><dt>Calls</dt><dd data-figure="calls">${c.calls}</dd></div>
            <div><dt>Answer rate</dt><dd data-figure="answer-rate">${ir(c.answerRate)}<small>of calls dialled</small></dd></div>
            <div><dt>Completion rate</dt><dd data-figure="completion-rate">${ir(c.completionRate)}<small>ended completed</small></dd></div>
            <div><dt>Minutes billed</dt><dd data-figure="minutes">${c.minutes.billed}<small>in this period</small></dd></div>
            <div>
              <dt>Plan this month</dt>
              <dd data-figure="plan">
                ${l.usedMinutes} of ${l.planMinutes} min
                <small>${l.reservedMinutes} reserved</small>
                <meter min="0" max=${l.planMinutes} value=${l.usedMinutes} aria-label="Plan minutes used">${l.usedMinutes} of ${l.planMinutes}</meter>
              </dd>
            </div>
            <div><dt>Turn latency p50 / p95</dt><dd data-figure="latency">${ar(c.latency.p50Ms)} / ${ar(c.latency.p95Ms)}<small>${c.latency.calls} timed calls</small></dd></div>
            <div><dt>Webhook deliveries failed / gone</dt><dd data-figure="webhooks">${c.webhooks.failed} / ${c.webhooks.gone}</dd></div>
          </dl>
          <${lr} perDay=${c.perDay} />
          <div class="split">
            <section aria-labelledby="by-status">
              <h2 id="by-status">Outcomes</h2>
              <${cr} caption="Calls by status" what="Status" counts=${c.byStatus} total=${c.calls} link=${e=>s(`status=${e}`)} />
            </section>
            <section aria-labelledby="by-answered">
              <h2 id="by-answered">Answered by</h2>
              <${cr} caption="Calls by who answered" what="Answered by" counts=${c.byAnsweredBy} total=${c.calls} link=${e=>s(`answeredBy=${e}`)} />
            </section>
          </div>
          <section aria-labelledby="errors">
            <h2 id="errors">Commonest errors</h2>
            ${c.errors.length===0?V`<p class="empty">No call of this period ended with an error.</p>`:V`
                  <div class="table-wrap">
                    <table>
                      <thead><tr><th scope="col">Error</th><th scope="col" class="num">Calls</th></tr></thead>
                      <tbody>${c.errors.map(e=>V`<tr key=${e.error}><td><code>${e.error}</code></td><td class="num">${e.calls}</td></tr>`)}</tbody>
                    </table>
                  </div>
                `}
          </section>
        `}
  `}function dr(e){if(!e)return`None: calls are dialled at any time`;let t=e.days?.length?e.days.map(e=>e[0].toUpperCase()+e.slice(1)).join(`, `):`every day`;return`${e.start}–${e.end}, ${t}, ${e.timeZone?`in ${e.timeZone}`:`in the called number's time zone`}`}var fr=e=>new Date(e).toLocaleDateString(void 0,{year:`numeric`,month:`short`,day:`numeric`,timeZone:`UTC`});function pr(){let[e,t]=R(null),[n,r]=R(null);return document.title=`Settings · svc console`,z(()=>{let e=new AbortController;return q().getSettings({signal:e.signal}).then(t).catch(t=>e.signal.aborted||r(t)),()=>e.abort()},[]),V`
    <h1>Settings</h1>
    <${J} error=${n} />
    ${e===null?n?null:V`<p>Loading…</p>`:V`
          <section aria-labelledby="key-defaults">
            <h2 id="key-defaults">This key and its defaults</h2>
            <dl class="settings" data-section="key">
              <dt>Key</dt><dd>${e.key.name} (<code>${e.key.hint}</code>)</dd>
              <dt>Caller id</dt><dd data-setting="callerId">${e.key.callerId??`${e.account.defaultCallerId??`none`} (the account's default)`}</dd>
              <dt>Voice</dt><dd data-setting="voice">${e.key.voice??`${e.defaultVoice} (the service's default)`}</dd>
              <dt>Calling window</dt><dd data-setting="callingWindow">${dr(e.key.callingWindow)}</dd>
              <dt>Answering-machine detection</dt><dd data-setting="machineDetection">${e.key.machineDetection}</dd>
              <dt>On behalf of</dt><dd data-setting="onBehalfOf">${e.key.onBehalfOf??`a customer (not named)`}</dd>
              <dt>Recording notice</dt><dd data-setting="recordingNotice">${e.key.recordingNotice?`on`:`off`}</dd>
            </dl>
          </section>
          <section aria-labelledby="plan">
            <h2 id="plan">Plan and usage</h2>
            <dl class="settings" data-section="plan">
              <dt>Billing period</dt><dd>${fr(e.plan.periodStart)} to ${fr(e.plan.periodEnd)} (UTC)</dd>
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
              secret's SHA-256 (<code>printf %s "$SECRET" | sha256sum | cut -c1-8</code>), to check which secret a receiver
              holds. The secret itself is never shown.
            </p>
          </section>
          <section aria-labelledby="keys">
            <h2 id="keys">Managing keys</h2>
            <p class="note">
              Keys are managed with the command line on the service's host (<code>npx svc keys …</code>), not here: a new
              key's secret is shown once, which a browser page should not hold, and revoking or rotating a key from a page
              signed in with one could sign the page out or leave it using a dead key.
            </p>
          </section>
        `}
  `}var mr=()=>location.hash.replace(/^#\/?/,``)||`overview`;function hr(){let[e,t]=R(mr()),[n,r]=R(Jt()!==null);if(z(()=>{let e=()=>t(mr());return window.addEventListener(`hashchange`,e),()=>window.removeEventListener(`hashchange`,e)},[]),!n)return V`<${an} onSignedIn=${()=>r(!0)} />`;let[i,a]=e.split(`?`)[0].split(`/`),o=i===`calls`&&a?V`<${Sn} key=${`call:${a}`} id=${decodeURIComponent(a)} />`:i===`place`?V`<${Un} />`:i===`batches`&&a===`new`?V`<${$n} />`:i===`batches`&&a?V`<${Jn} key=${`batch:${a}`} id=${decodeURIComponent(a)} />`:i===`batches`?V`<${qn} />`:i===`do-not-call`?V`<${er} />`:i===`settings`?V`<${pr} />`:i===`calls`?V`<${mn} key=${e} />`:V`<${ur} />`;return V`
    <header>
      <span class="brand">svc console</span>
      <nav aria-label="Sections">
        ${[[`overview`,`Overview`],[`calls`,`Calls`],[`place`,`Place a call`],[`batches`,`Batches`],[`do-not-call`,`Do-not-call list`],[`settings`,`Settings`]].map(([e,t])=>V`<a href=${`#/${e}`} aria-current=${i===e?`page`:void 0}>${t}</a>`)}
      </nav>
      <button
        type="button"
        class="secondary"
        onClick=${()=>{Xt(),location.hash=``,r(!1)}}
      >
        Sign out
      </button>
    </header>
    <main>${o}</main>
  `}ue(V`<${hr} />`,document.getElementById(`app`));